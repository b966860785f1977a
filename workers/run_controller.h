// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
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
// The engine runs the slots of the run's plan (model/run_plan.h) in order, each reported as a
// phase; consecutive slots keep their figures apart. A live rate change makes the rest of a
// phase the next slot, reported as the same phase.
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
    // Safe from any thread: the current phase sends at `rate` ops/s from now to its end, a
    // `rate` event says so. False when it cannot: a closed-model, count-limited or search
    // phase, a run on agents, a rate that is not > 0, or kRateChanges used up.
    bool change_rate(double rate);
    // Safe from any thread: as change_rate, but the rest of the phase keeps its shape at
    // `factor` times its plan: a ramp goes on ramping, from and to `factor` times its rates.
    bool scale_rate(double factor);
    // Safe from any thread: a `note` event ("heap dump here") at `t_ms` on the run's clock,
    // or now; on the time axis of every panel and in the store like any event.
    // Without t_ms, the note stands at `asked`: when the user asked for it, not when they
    // finished typing it.
    void annotate(std::string text, std::optional<int64_t> t_ms = std::nullopt,
                  Clock::time_point asked = Clock::now());
    // Set once run() has started the clock.
    Clock::time_point start_time() const { return start_; }
    // With an slo in the spec: where the probes' samples go so full GCs are counted; null
    // otherwise.
    RunObserver* slo_probe_observer() { return slo_.get(); }
    // The SLO's checks over its window as they stand (none without an slo); from any thread.
    std::vector<SloCheck> slo_window_checks() const {
        return slo_ ? slo_->window_checks() : std::vector<SloCheck>{};
    }

    // A search step's rate and when it begins, on this process's clock.
    struct StepOrder {
        double rate = 0;
        Clock::time_point start{};
        double duration_s = 0;  // a confirmation hold's; 0: step_s
    };
    // Called once the step or phase before `phase` ended; waits for the order of `phase`,
    // nullopt once the run is over.
    using StepSource = std::function<std::optional<StepOrder>(int phase)>;
    // Before run(): an agent follows its controller, which alone knows when every agent is
    // done with a phase. Each phase after the first begins when `source` says (its rate and
    // length the spec's); a search's steps after the first run as ordered, and this run
    // judges none.
    void follow(StepSource source) { follow_ = std::move(source); }

  private:
    // A slot that ended, and when.
    struct Draining {
        int phase = -1;  // the slot
        Clock::time_point ended{};
    };
    // How run_phase left a slot: when, and whether the next slot goes on with its phase.
    struct Exit {
        Clock::time_point at{};
        bool continued = false;  // at a new rate
        bool on_plan = false;    // its time ran out: `at` was known when it began
    };
    enum class PhaseEnd {
        next_follows,  // its last tick is held in cut_ until the next phase began
        last,
        judged,  // a search step: ends once its replies are in
    };

    // Runs one slot and returns when it ended: on the plan's clock when its time ran out, so
    // ticks and phase changes coincide when durations are whole ticks; nullopt when stopped.
    std::optional<Exit> run_phase(int slot, Clock::time_point phase_start, PhaseEnd how);
    // A pending rate change makes the rest of `slot` the next slot; false when there is none.
    bool continue_at_new_rate(int slot, Clock::time_point now, Clock::time_point end);
    void assign(int slot, const Phase& phase, int reported);
    // A phase start not known when the phase before began: `earliest` on this machine, or
    // with agents the first tick due once the order can reach them, so the phase's ticks are
    // whole ones on every agent.
    Clock::time_point ordered_start(Clock::time_point earliest) const;
    // The phases of a spec; returns the last one begun (-1: none).
    int run_phases();
    int run_search();
    // Idles between search steps; false when the run was stopped meanwhile.
    bool settle(double settle_s);
    // Until every JVM probe has a sample stamped after a search step's end, bounded.
    void await_jvm_samples(Clock::time_point step_end);
    SearchResult search_result(const RunSummary& summary) const;
    // A step run while an agent was lost ran short of its plan: it fails, with the check
    // "agent lost" first, whatever its figures.
    void charge_loss(SearchStep& step) const;
    // With agents lost, the verdict fails on the check "agent lost", scope "run".
    void charge_loss(SloVerdict& verdict, const RunSummary& summary) const;
    void emit_cut();
    void stop_sending();
    void wake();
    void emit_sample(int slot, Clock::time_point now);
    // What a part of `phase` before a rate change left behind, for that phase's next sample.
    IntervalSample take_carry(int phase);
    void publish(const IntervalSample& sample);
    // The replies of a phase that came after its end, as its last sample.
    void emit_drain(const Draining& d, Clock::time_point now);
    void finish_drain_if_done(Clock::time_point now);
    void await_drain();
    // Waits until `deadline`, a stop or a rate change; true when the run is stopping.
    bool wait_until(Clock::time_point deadline);
    int64_t ms_since_start(Clock::time_point t) const;
    void emit_event(const RunEvent& event);
    void emit_engine_events(Clock::time_point now);
    void emit_notes();
    RunStatus final_status(const RunSummary& summary, std::string& error) const;
    void give_up_if_unreached(const IntervalSample& sample);

    RunSpec spec_;  // as given: what observers see and the store keeps
    RunSpec plan_;  // the phases run: the spec's, or a search's allotted up front
    // The spec's phases as run_plan bounds them (a replay's end with its file).
    std::vector<Phase> phases_;
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
    StepSource follow_;
    std::vector<int> reported_;    // per slot: the phase it is reported as
    std::vector<bool> continued_;  // per slot: the rest of its phase went to the next
    int changes_left_;
    bool answered_ = false;  // some op of the run reached a server
    bool gave_up_ = false;
    IntervalSample carry_;
    std::map<int, std::set<std::string>> lost_in_;  // per phase: the agents lost in it
    int carry_phase_ = -1;
    std::atomic<double> pending_rate_{0};       // wakes the controller's waits
    std::atomic<double> pending_scale_{0};      // as pending_rate_, a factor of the plan
    std::atomic<bool> rate_changeable_{false};  // the current slot can take a new rate
    struct Note {
        std::string text;
        std::optional<int64_t> t_ms;
        Clock::time_point made;
    };
    std::vector<Note> notes_;  // guarded by mutex_, emitted by the controller's thread
    std::atomic<int> stop_requests_{0};
    std::mutex mutex_;
    std::condition_variable wake_;
};

}  // namespace perflab
