// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "engine.h"
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
    void collect(IntervalSample& out) override;
    void stop() override;
    void cancel() noexcept override { cancel_.store(true); }

    // After stop(): from the last request sent to the last reply (vegeta's "wait").
    double wait_s() const override { return wait_s_; }

  private:
    RunSpec spec_;
    HttpPlan plan_;
    PhaseBoard board_;
    std::vector<std::unique_ptr<HttpWorker>> workers_;
    std::atomic<bool> cancel_{false};
    bool stopped_ = false;
    double wait_s_ = 0;
};

}  // namespace perflab
