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
#include "model/rate_search.h"
#include "model/summary.h"
#include "slo_watch.h"

namespace perflab {

// Runs a spec's phases on an engine: every tick it collects one IntervalSample and hands it to
// the observers; a phase change cuts a tick short, so every sample belongs to one phase.
//
// Each phase's schedule starts on the plan's clock, while replies to the phase before may
// still be arriving: those belong to the phase before and come as one more sample of it (its
// drain), stamped when the last of them arrived, its interval the time they took.
//
// A spec with a search has no phases of its own: each step is a phase whose rate the
// search picks once the step before has been judged, with every one of its replies in.
class RunController {
  public:
    RunController(RunSpec spec, std::unique_ptr<LoadEngine> engine);
    ~RunController();

    void add_observer(RunObserver* observer);
    // Runs to the end (or to request_stop) on the calling thread.
    RunSummary run();
    // Safe from any thread. The first call stops sending and waits for operations in flight
    // (up to their timeout); a second one stops waiting: they count as cancelled. The run
    // ends with status `stopped`.
    void request_stop();
    // Set once run() has started the clock.
    Clock::time_point start_time() const { return start_; }
    // With an slo in the spec: where the probes' samples go so full GCs are counted; null
    // otherwise.
    RunObserver* slo_probe_observer() { return slo_.get(); }

  private:
    // A phase that ended, and when.
    struct Draining {
        int phase = -1;
        Clock::time_point ended{};
    };
    enum class PhaseEnd {
        next_follows,  // its last tick is held in cut_ until the next phase began
        last,
        judged,  // a search step: ends once its replies are in
    };

    // Runs one phase and returns when it ended: on the plan's clock when its time ran out, so
    // ticks and phase changes coincide when durations are whole ticks; nullopt when stopped.
    std::optional<Clock::time_point> run_phase(int index, Clock::time_point phase_start,
                                               PhaseEnd how);
    // The phases of a spec; returns the last one begun (-1: none).
    int run_phases();
    int run_search();
    SearchResult search_result(const RunSummary& summary) const;
    void emit_cut();
    void stop_sending();
    void wake();
    void emit_sample(int phase, Clock::time_point now);
    void publish(const IntervalSample& sample);
    // The replies of a phase that came after its end, as its last sample.
    void emit_drain(const Draining& d, Clock::time_point now);
    void finish_drain_if_done(Clock::time_point now);
    void await_drain();
    bool wait_until(Clock::time_point deadline);
    int64_t ms_since_start(Clock::time_point t) const;
    void emit_event(const RunEvent& event);
    RunStatus final_status(const RunSummary& summary, std::string& error) const;

    RunSpec spec_;  // as given: what observers see and the store keeps
    RunSpec plan_;  // the phases run: the spec's, or a search's allotted up front
    std::unique_ptr<LoadEngine> engine_;
    std::vector<RunObserver*> observers_;
    SummaryBuilder summary_;
    Clock::time_point start_{};
    Clock::time_point last_sample_{};
    Clock::time_point phase_start_{};
    Clock::time_point next_tick_{};
    std::optional<Draining> draining_;
    std::optional<Draining> cut_;
    std::unique_ptr<SloWatch> slo_;
    std::optional<RateSearch> search_;
    std::atomic<int> stop_requests_{0};
    std::mutex mutex_;
    std::condition_variable wake_;
};

}  // namespace perflab
