// SPDX-License-Identifier: MIT
#pragma once

#include <functional>
#include <memory>

#include "engine.h"
#include "first_error.h"
#include "http_request.h"
#include "phase_board.h"

namespace perflab {

// One thread of the HTTP engine: its own io_context and its own connections. The engine calls
// every method from the controller's thread; each call is posted to the worker's thread.
class HttpWorker {
  public:
    // Resolves the plan's hosts; throws std::runtime_error when one cannot be resolved. The
    // first request that cannot reach its server is noted in `unreached`.
    HttpWorker(const HttpPlan& plan, PhaseBoard& board, int index, FirstError& unreached);
    ~HttpWorker();

    void launch();
    // Opens this many connections ahead of the load; `settled` runs (on the worker's thread)
    // once each has opened or failed.
    void preconnect(int connections, std::function<void()> settled);
    // The board already holds the phase; `bound` is the phase's connection count (closed
    // model) or its bound on open connections (open model), over all workers.
    void begin_phase(int phase, int bound);
    // Stops sending: sends due by now go if a connection is free, the rest are dropped;
    // requests in flight end first. `abandon`: they are counted as cancelled at once.
    void stop(bool abandon);
    void join();

    // The figures of `phase` since the last call, times relative to origin.
    void drain(IntervalSample& out, int phase, Clock::time_point origin);
    int open_connections() const;

    // Per protocol (http_worker.cpp): HTTP/1.1 connections, or HTTP/2 streams.
    class Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace perflab
