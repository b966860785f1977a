// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "engine.h"
#include "http_request.h"
#include "phase_board.h"

namespace perflab {

// One thread of the HTTP engine: its own io_context and its own connections. The engine calls
// every method from the controller's thread; each call is posted to the worker's thread.
class HttpWorker {
  public:
    // Resolves the plan's hosts; throws std::runtime_error when one cannot be resolved.
    HttpWorker(const HttpPlan& plan, PhaseBoard& board, int index);
    ~HttpWorker();

    void launch();
    // The board already holds the phase; `bound` is the phase's connection count (closed
    // model) or its bound on open connections (open model), over all workers.
    void begin_phase(int phase, int bound);
    // Stops sending. Requests in flight and sends owed end first, unless `abandon`.
    void stop(bool abandon);
    void join();

    void drain(IntervalSample& out);
    int open_connections() const;
    // Valid after join(): when this worker last sent a request and last finished one.
    Clock::time_point last_send() const;
    Clock::time_point last_reply() const;

  private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace perflab
