// SPDX-License-Identifier: MIT
#pragma once

#include <memory>

#include "engine.h"

namespace perflab {

// An engine started already (connected, prefilled) whose start() returns at a given moment:
// agents and their controller start their clocks together.
class StartAtEngine : public LoadEngine {
  public:
    StartAtEngine(std::unique_ptr<LoadEngine> started, Clock::time_point at)
        : engine_(std::move(started)), at_(at) {}

    void start() override;
    void begin_phase(const PhasePlan& plan) override { engine_->begin_phase(plan); }
    bool phase_done() const override { return engine_->phase_done(); }
    bool drained(int phase) const override { return engine_->drained(phase); }
    void collect(IntervalSample& out, int phase, Clock::time_point origin) override {
        engine_->collect(out, phase, origin);
    }
    void stop() override { engine_->stop(); }
    uint64_t prefill_sets() const override { return engine_->prefill_sets(); }
    void cancel() override { engine_->cancel(); }
    std::string first_connection_error() const override {
        return engine_->first_connection_error();
    }
    std::optional<Clock::time_point> common_start() const override { return at_; }

  private:
    std::unique_ptr<LoadEngine> engine_;
    Clock::time_point at_;
};

}  // namespace perflab
