// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "engine.h"
#include "first_error.h"
#include "http_request.h"
#include "phase_board.h"

namespace perflab {

class HttpWorker;

// The "http" engine: http.threads workers, each with its own io_context and connections.
// Open model: each request has an intended time and its latency counts from then, whether
// or not a connection was free; closed model: the phase's connections send, wait, repeat.
// Connections stay open across phases.
class HttpEngine final : public LoadEngine {
  public:
    // Validates the targets; throws std::runtime_error naming the field.
    explicit HttpEngine(const RunSpec& spec);
    ~HttpEngine() override;

    void start() override;
    void begin_phase(const PhasePlan& plan) override;
    bool phase_done() const override { return board_.phase_done(); }
    bool drained(int phase) const override;
    void collect(IntervalSample& out, int phase, Clock::time_point origin) override;
    void stop() override;
    void cancel() override;
    std::string first_connection_error() const override { return unreached_.text(); }

  private:
    // A phase's bound on connections: the closed model's count, the open model's limit.
    int bound(const Phase& phase, int connections) const;

    RunSpec spec_;
    HttpPlan plan_;
    PhaseBoard board_;
    FirstError unreached_;
    // cancel() comes from another thread and may meet start() still adding workers.
    std::mutex workers_mutex_;
    std::vector<std::unique_ptr<HttpWorker>> workers_;
    bool cancelled_ = false;
    std::atomic<bool> cancel_requested_{false};
    std::atomic<int> connecting_{0};  // workers whose connections are still opening
    bool stopped_ = false;
};

}  // namespace perflab
