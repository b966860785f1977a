// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "engine.h"
#include "model/observer.h"
#include "model/summary.h"

namespace perflab {

// Runs a spec's phases on an engine: every tick it collects one IntervalSample and hands it to
// the observers; a phase change cuts the tick short, so every sample belongs to one phase.
class RunController {
  public:
    RunController(RunSpec spec, std::unique_ptr<LoadEngine> engine);
    ~RunController();

    void add_observer(RunObserver* observer);
    // Runs to the end (or to request_stop) on the calling thread.
    RunSummary run();
    // Safe from any thread; the run ends with status `stopped` after a last sample.
    void request_stop();
    // Set once run() has started the clock.
    Clock::time_point start_time() const { return start_; }

  private:
    // Runs one phase and returns when it ended: on the plan's clock when its time ran out, so
    // ticks and phase changes coincide when durations are whole ticks; nullopt when stopped.
    // The last phase stops the engine before its final sample, so replies still in flight
    // land in that sample.
    std::optional<Clock::time_point> run_phase(int index, Clock::time_point phase_start, bool last);
    void emit_sample(int phase, Clock::time_point now);
    bool wait_until(Clock::time_point deadline);
    void wait_for_idle_engine(Clock::time_point deadline);
    int64_t ms_since_start(Clock::time_point t) const;
    void emit_event(const RunEvent& event);

    RunSpec spec_;
    std::unique_ptr<LoadEngine> engine_;
    std::vector<RunObserver*> observers_;
    SummaryBuilder summary_;
    Clock::time_point start_{};
    Clock::time_point last_sample_{};
    Clock::time_point phase_start_{};
    Clock::time_point next_tick_{};
    std::atomic<bool> stop_{false};
    std::mutex mutex_;
    std::condition_variable wake_;
};

}  // namespace perflab
