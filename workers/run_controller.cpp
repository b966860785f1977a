// SPDX-License-Identifier: MIT
#include "run_controller.h"

#include <algorithm>
#include <stdexcept>
#include <thread>
#include <utility>

#include "model/format.h"
#include "model/phase_load_report.h"
#include "model/run_plan.h"

namespace perflab {

namespace {

// How often a count-limited phase is checked for its end between ticks.
constexpr auto kPollInterval = std::chrono::milliseconds(10);

std::string describe(const Phase& p, int connections) {
    std::string s;
    if (p.open()) {
        s = "rate " + format_fixed(p.rate, 0) + "/s";
        if (p.rate_to) s += " to " + format_fixed(*p.rate_to, 0) + "/s";
    } else {
        s = "concurrency " + std::to_string(connections);
    }
    if (p.duration_s > 0) s += " for " + format_fixed(p.duration_s, 0) + " s";
    if (p.ops > 0) s += (p.duration_s > 0 ? " or " : " for ") + std::to_string(p.ops) + " ops";
    if (p.cache) s += "; " + cache_load_text(*p.cache);
    return s;
}

// A run where nothing was ever answered: every op failed before a server replied.
bool never_answered(const IntervalSample& t) {
    uint64_t answered = t.total_ops() - t.total_errors();
    for (const auto& [code, n] : t.status_codes)
        answered += n;
    if (const auto it = t.errors.find("server"); it != t.errors.end()) answered += it->second;
    return answered == 0;
}

}  // namespace

RunController::RunController(RunSpec spec, std::unique_ptr<LoadEngine> engine)
    : spec_(std::move(spec)),
      plan_(run_plan(spec_)),
      phases_(plan_.phases.begin(),
              plan_.phases.begin() + std::ptrdiff_t(spec_.search ? 0 : spec_.phases.size())),
      engine_(std::move(engine)),
      summary_(spec_.kind),
      reported_(plan_.phases.size(), -1),
      continued_(plan_.phases.size(), false),
      changes_left_(spec_.search ? 0 : kRateChanges) {
    if (spec_.slo)
        // It judges reported phases: the spec's, or a search's steps (slot for slot).
        slo_ = std::make_unique<SloWatch>(
            spec_.search ? plan_ : spec_, [this](const RunEvent& e) { emit_event(e); },
            [this] { stop_sending(); });
}

RunController::~RunController() = default;

void RunController::add_observer(RunObserver* observer) {
    observers_.push_back(observer);
}

void RunController::request_stop() {
    if (stop_requests_.fetch_add(1) > 0) return engine_->cancel();
    wake();
}

// A stop of the run's own (slo.abort): never the second request that cancels replies.
void RunController::annotate(std::string text, std::optional<int64_t> t_ms,
                             Clock::time_point asked) {
    {
        std::lock_guard lock(mutex_);
        notes_.push_back({std::move(text), t_ms, asked});
    }
    wake_.notify_all();
}

// On the controller's thread, which alone knows the run's clock and talks to the observers.
void RunController::emit_notes() {
    std::vector<Note> notes;
    {
        std::lock_guard lock(mutex_);
        notes.swap(notes_);
    }
    for (auto& n : notes) {
        const int64_t now = start_ == Clock::time_point{} ? 0 : ms_since_start(n.made);
        emit_event({n.t_ms.value_or(std::max<int64_t>(0, now)), "note", std::move(n.text)});
    }
}

bool RunController::change_rate(double rate) {
    // Agents run the plan they were given: they could not follow a new rate.
    if (!(rate > 0) || !rate_changeable_.load() || !spec_.agents.empty()) return false;
    pending_rate_.store(rate);
    wake();
    return true;
}

bool RunController::scale_rate(double factor) {
    if (!(factor > 0) || !rate_changeable_.load() || !spec_.agents.empty()) return false;
    pending_scale_.store(factor);
    wake();
    return true;
}

void RunController::stop_sending() {
    int none = 0;
    if (stop_requests_.compare_exchange_strong(none, 1)) wake();
}

void RunController::wake() {
    // Taken and released so that a waiter between its check and its wait cannot miss this.
    { std::lock_guard lock(mutex_); }
    wake_.notify_all();
}

int64_t RunController::ms_since_start(Clock::time_point t) const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t - start_).count();
}

bool RunController::wait_until(Clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    wake_.wait_until(lock, deadline, [this] {
        return stop_requests_.load() > 0 || !notes_.empty() ||
               (rate_changeable_.load() && (pending_rate_.load() > 0 || pending_scale_.load() > 0));
    });
    const bool stopping = stop_requests_.load() > 0;
    lock.unlock();
    emit_notes();
    return stopping;
}

void RunController::emit_engine_events(Clock::time_point now) {
    for (RunEvent& e : engine_->take_events()) {
        e.t_ms = ms_since_start(now);
        emit_event(e);
    }
}

void RunController::emit_event(const RunEvent& event) {
    for (auto* o : observers_)
        o->on_event(event);
}

IntervalSample RunController::take_carry(int phase) {
    if (carry_phase_ != phase) return {};
    carry_phase_ = -1;
    return std::exchange(carry_, {});
}

void RunController::emit_sample(int slot, Clock::time_point now) {
    const int phase = reported_[size_t(slot)];
    IntervalSample sample = take_carry(phase);
    engine_->collect(sample, slot, start_);
    // The late replies of this phase's part before a rate change come in its ticks.
    if (draining_ && continued_[size_t(draining_->phase)] &&
        reported_[size_t(draining_->phase)] == phase)
        engine_->collect(sample, draining_->phase, start_);
    sample.t_ms = ms_since_start(now);
    sample.interval_ms = ms_since_start(now) - ms_since_start(last_sample_);
    sample.phase = phase;
    const auto& p = plan_.phases[size_t(slot)];
    const double mid_s =
        std::chrono::duration<double>(last_sample_ + (now - last_sample_) / 2 - phase_start_)
            .count();
    // Past its time (a search step waiting for its replies) a phase plans nothing.
    if (p.open() && (p.duration_s <= 0 || mid_s <= p.duration_s))
        sample.planned_rate = p.rate_at(mid_s);
    last_sample_ = now;
    if (sample.interval_ms <= 0 && sample.total_ops() == 0 && sample.dropped == 0) return;
    publish(sample);
}

void RunController::publish(const IntervalSample& sample) {
    for (const auto& agent : sample.agents)
        if (agent.lost) lost_in_[sample.phase].insert(agent.host);
    summary_.add(sample);
    give_up_if_unreached(sample);
    for (auto* o : observers_)
        o->on_sample(sample);
    if (slo_) slo_->on_sample(sample);
}

// A server that is not there fails the run after three connect timeouts, not after its
// phases (a 60-s spec spent 60 s before its exit 1); "wait_for_server" waits for one that
// starts later.
void RunController::give_up_if_unreached(const IntervalSample& sample) {
    answered_ = answered_ || !never_answered(sample);
    if (answered_ || gave_up_ || spec_.wait_for_server) return;
    const int timeout_ms = spec_.http    ? spec_.http->connect_timeout_ms
                           : spec_.cache ? spec_.cache->timeout_ms
                                         : 0;
    const std::string unreached = engine_->first_connection_error();
    if (timeout_ms <= 0 || unreached.empty() || sample.t_ms < 3 * int64_t(timeout_ms)) return;
    gave_up_ = true;
    emit_event({sample.t_ms, "error",
                "no server answered in the run's first " + format_fixed(sample.t_ms / 1000.0, 1) +
                    " s (three connect timeouts): " + unreached +
                    "; the run stops (\"wait_for_server\": true waits for a server that starts "
                    "later)"});
    request_stop();
}

void RunController::emit_drain(const Draining& d, Clock::time_point now) {
    const int phase = reported_[size_t(d.phase)];
    // A part before a rate change is no drain of its own: the rest of its replies join the
    // phase's next sample, and the phase ends with its last part.
    if (continued_[size_t(d.phase)]) {
        if (carry_phase_ != phase) carry_ = {};
        carry_phase_ = phase;
        engine_->collect(carry_, d.phase, start_);
        return;
    }
    IntervalSample sample = take_carry(phase);
    engine_->collect(sample, d.phase, start_);
    sample.t_ms = ms_since_start(now);
    sample.interval_ms = sample.t_ms - ms_since_start(d.ended);
    sample.phase = phase;
    // Past its end a phase plans nothing; agents' parts merged in carry their own plan's rate.
    sample.planned_rate = 0;
    sample.drain = true;
    if (sample.total_ops() > 0 || sample.dropped > 0 || sample.sent > 0) publish(sample);
    for (auto* o : observers_)
        o->on_phase_end(summary_.phase(sample.phase));
}

void RunController::finish_drain_if_done(Clock::time_point now) {
    if (!draining_ || !engine_->drained(draining_->phase)) return;
    emit_drain(*draining_, now);
    draining_.reset();
}

// Two phases' replies can be told apart, not three: a phase shorter than the replies of the
// one before it waits for them before the next begins, and says how long.
void RunController::await_drain() {
    if (!draining_) return;
    const auto from = Clock::now();
    while (!engine_->drained(draining_->phase) && stop_requests_.load() == 0)
        wait_until(Clock::now() + kPollInterval);
    const auto now = Clock::now();
    const int64_t waited = ms_since_start(now) - ms_since_start(from);
    if (waited > 0)
        emit_event({ms_since_start(now), "drain",
                    "waited " + std::to_string(waited) + " ms for the replies of phase " +
                        std::to_string(reported_[size_t(draining_->phase)] + 1)});
    finish_drain_if_done(now);
}

void RunController::emit_cut() {
    if (!cut_) return;
    emit_sample(cut_->phase, cut_->ended);
    cut_.reset();
}

std::optional<RunController::Exit> RunController::run_phase(int slot, Clock::time_point phase_start,
                                                            PhaseEnd how) {
    const Phase& phase = plan_.phases[size_t(slot)];
    const int index = reported_[size_t(slot)];
    const bool continuation = slot > 0 && reported_[size_t(slot) - 1] == index;
    PhasePlan plan{slot,        phase,       phase_start, phase_connections(plan_, phase),
                   spec_.share, spec_.shares};
    // The next phase's first sends are due the moment the phase before ends: its plan goes
    // out first, the last sample of the phase before after it.
    engine_->begin_phase(plan);
    emit_cut();
    // A step ordered ahead (agents) begins later: the time until then is no phase's.
    while (Clock::now() < phase_start && !wait_until(phase_start)) {
    }
    if (Clock::now() >= phase_start) last_sample_ = std::max(last_sample_, phase_start);
    // A tick due while the phase waited for its start (agents' orders, a drain) is no tick of
    // it: its first tick runs from its start to the next one due.
    while (next_tick_ <= phase_start)
        next_tick_ += std::chrono::milliseconds(spec_.tick_ms);
    phase_start_ = phase_start;
    if (slo_) slo_->phase_began(index, ms_since_start(phase_start));
    if (!continuation)
        emit_event(
            {ms_since_start(phase_start), "phase",
             "phase " + std::to_string(index + 1) + ": " + describe(phase, plan.connections)});
    const auto phase_end = phase.duration_s > 0
                               ? phase_start + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double>(phase.duration_s))
                               : Clock::time_point::max();
    // A judged step waits for its replies, up to the longest an op may take.
    const int timeout_ms = plan_.http ? plan_.http->timeout_ms : plan_.cache->timeout_ms;
    // (A phase of ops has no end to settle after; max() plus anything would overflow.)
    const auto settle_end = phase_end == Clock::time_point::max()
                                ? phase_end
                                : phase_end + std::chrono::milliseconds(timeout_ms + 1000);
    const bool judged = how == PhaseEnd::judged;
    pending_rate_.store(0);
    pending_scale_.store(0);
    rate_changeable_.store(phase.open() && !judged && phase.ops == 0 && phase.duration_s > 0 &&
                           changes_left_ > 0);
    const auto tick = std::chrono::milliseconds(spec_.tick_ms);
    for (;;) {
        auto wake = std::min(next_tick_, phase_end);
        if (phase.ops > 0 || draining_ || (judged && Clock::now() >= phase_end))
            wake = std::min(wake, Clock::now() + kPollInterval);
        bool stopped = wait_until(wake);
        const auto now = Clock::now();
        emit_engine_events(now);
        if (!stopped && engine_->wants_stop()) {
            request_stop();
            stopped = true;
        }
        finish_drain_if_done(now);
        const bool timed_out = now >= phase_end;
        const bool ended = judged ? timed_out && (engine_->phase_done() || now >= settle_end)
                                  : timed_out || (phase.ops > 0 && engine_->phase_done());
        if (!stopped && !ended && continue_at_new_rate(slot, now, phase_end)) {
            cut_ = Draining{slot, now};
            return Exit{now, true};
        }
        const bool ticked = stopped || ended || now >= next_tick_;
        if (ended && !stopped && how == PhaseEnd::next_follows)
            cut_ = Draining{slot, now};
        else if (ticked)
            emit_sample(slot, now);
        if (ticked)
            while (next_tick_ <= now)
                next_tick_ += tick;
        if (stopped) {
            rate_changeable_.store(false);
            return std::nullopt;
        }
        if (ended) {
            rate_changeable_.store(false);
            if (judged || !timed_out) return Exit{now};
            return Exit{phase_end, false, true};
        }
    }
}

bool RunController::continue_at_new_rate(int slot, Clock::time_point now, Clock::time_point end) {
    const double rate = pending_rate_.exchange(0);
    const double scale = pending_scale_.exchange(0);
    if (!(rate > 0 || scale > 0) || !rate_changeable_.load() || end - now < kPollInterval)
        return false;
    --changes_left_;
    Phase rest = plan_.phases[size_t(slot)];
    const double was = rest.rate_at(std::chrono::duration<double>(now - phase_start_).count());
    std::string told;
    if (rate > 0) {
        rest.rate = rate;
        rest.rate_to.reset();
        told =
            "rate changed from " + format_fixed(was, 0) + "/s to " + format_fixed(rate, 0) + "/s";
    } else {
        // The plan from here, at `scale` times: a ramp's end moves with its start.
        rest.rate = was * scale;
        if (rest.rate_to) *rest.rate_to *= scale;
        told = "rate scaled by " + std::string(scale >= 1 ? "+" : "") +
               format_fixed((scale - 1) * 100, 0) + "% from " + format_fixed(was, 0) + "/s to " +
               format_fixed(rest.rate, 0) + "/s";
        if (rest.rate_to) told += ", ramping to " + format_fixed(*rest.rate_to, 0) + "/s";
    }
    rest.duration_s = std::chrono::duration<double>(end - now).count();
    assign(slot + 1, rest, reported_[size_t(slot)]);
    continued_[size_t(slot)] = true;
    emit_event({ms_since_start(now), "rate",
                told + " for the rest of phase " + std::to_string(reported_[size_t(slot)] + 1)});
    return true;
}

Clock::time_point RunController::ordered_start(Clock::time_point earliest) const {
    const auto lead = engine_->step_lead();
    if (lead == Clock::duration{}) return earliest;
    const auto tick = std::chrono::milliseconds(spec_.tick_ms);
    const auto ticks = (earliest + lead - start_ + tick - Clock::duration(1)) / tick;
    return start_ + ticks * tick;
}

void RunController::assign(int slot, const Phase& phase, int reported) {
    plan_.phases[size_t(slot)] = phase;
    reported_[size_t(slot)] = reported;
}

int RunController::run_phases() {
    auto phase_start = start_;
    const int phases = int(spec_.phases.size());
    int begun = -1;
    int slot = 0;
    assign(0, phases_.front(), 0);
    while (stop_requests_.load() == 0) {
        begun = slot;
        const int index = reported_[size_t(slot)];
        const bool last = index + 1 == phases;
        const auto exit =
            run_phase(slot, phase_start, last ? PhaseEnd::last : PhaseEnd::next_follows);
        if (!exit || (last && !exit->continued)) break;
        phase_start = exit->on_plan || exit->continued ? exit->at : ordered_start(exit->at);
        const Draining just_ended{slot, cut_->ended};
        if (draining_) {
            emit_cut();
            await_drain();
            if (draining_) break;  // stopped while waiting
            if (const auto now = Clock::now(); now > phase_start) phase_start = ordered_start(now);
        }
        draining_ = just_ended;
        if (!exit->continued) assign(slot + 1, phases_[size_t(index) + 1], index + 1);
        ++slot;
        if (follow_) {
            // Told now, not once the order came: the controller's tick of the phase's end
            // waits for it.
            emit_cut();
            const auto order = follow_(slot);
            if (!order) break;
            phase_start = order->start;
        }
    }
    return begun;
}

// Steps run back to back on the same connections. A step's rate is known only once the
// step before is judged, so the next one starts when the last reply of that one came: a
// server still working off an overloaded step's queue would fail the next step for it.
// Agents learn each rate from their controller: a step starts once the order can reach them.
int RunController::run_search() {
    const SearchSpec& s = *spec_.search;
    search_.emplace(s);
    auto phase_start = start_;
    int index = 0;
    if (s.warmup_s > 0) {
        assign(0, plan_.phases.front(), 0);
        const auto ended = run_phase(0, phase_start, PhaseEnd::next_follows);
        if (!ended) return 0;
        phase_start = ended->at;
        draining_ = Draining{0, cut_->ended};
        index = 1;
    }
    int begun = index - 1;
    const int first = index;
    for (; !search_->done() && stop_requests_.load() == 0 && index < int(plan_.phases.size());
         ++index) {
        double rate = search_->rate();
        double duration_s = search_->duration_s();
        if (follow_ && index > first) {
            const auto order = follow_(index);
            if (!order) break;
            rate = order->rate;
            duration_s = order->duration_s;
            phase_start = order->start;
        }
        assign(index, search_step(s, rate, duration_s), index);
        begun = index;
        const auto ended = run_phase(index, phase_start, PhaseEnd::judged);
        if (!ended) break;
        if (!follow_) {
            await_jvm_samples(ended->at);
            SearchStep step =
                judge_step(*spec_.slo, spec_.kind, index, plan_.phases[size_t(index)].rate,
                           summary_.phase(index), slo_->full_gcs(index));
            charge_loss(step);
            search_->record(step.passed);
            if (search_->done()) break;
            // The agents left could not send the plan's rate, and a rate for fewer agents is
            // another search: this one ends with what every agent ran.
            if (lost_in_.count(index)) {
                emit_event({ms_since_start(Clock::now()), "search",
                            "the search stops: an agent was lost in step " +
                                std::to_string(index - first + 1) +
                                "; its result is from the steps every agent ran"});
                break;
            }
        }
        if (draining_) {
            emit_cut();
            await_drain();
            if (draining_) break;  // stopped while waiting
        }
        draining_ = Draining{index, ended->at};
        if (!follow_ && s.settle_s > 0) {
            // With every reply in, the step's last sample goes now: the idle time is no step's.
            if (engine_->phase_done()) {
                emit_drain(*draining_, Clock::now());
                draining_.reset();
            }
            if (!settle(s.settle_s)) break;
        }
        phase_start = std::max(ended->at, Clock::now()) + engine_->step_lead();
    }
    return begun;
}

// A JVM probe's sample for a step's last tick comes after the step ended: judged before it is
// in, a full GC in the step's last second would be charged to the next step (and the step
// passed). Bounded by two ticks and a second, for a probe that stopped sampling.
void RunController::await_jvm_samples(Clock::time_point step_end) {
    const auto jvms = std::count_if(spec_.probes.begin(), spec_.probes.end(),
                                    [](const auto& p) { return p.type == ProbeSpec::Type::jvm; });
    if (jvms == 0) return;
    const int64_t end_ms = ms_since_start(step_end);
    const auto deadline =
        Clock::now() + 2 * std::chrono::milliseconds(spec_.tick_ms) + std::chrono::seconds(1);
    while (slo_->jvms_past(end_ms) < jvms && Clock::now() < deadline)
        if (wait_until(std::min(deadline, Clock::now() + kPollInterval))) return;
}

// No load until the probed JVM's old generation stops falling (what the step's garbage set
// off is collected) or settle_s passed: a step pays for its own heap, not the last one's.
bool RunController::settle(double settle_s) {
    const auto from = Clock::now();
    const auto deadline =
        from + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(settle_s));
    const int64_t since = ms_since_start(from);
    bool steady = false;
    while (!(steady = slo_->old_gen().stopped_falling(since)) && Clock::now() < deadline)
        if (wait_until(std::min(deadline, Clock::now() + kPollInterval))) return false;
    const auto now = Clock::now();
    emit_event({ms_since_start(now), "settle",
                "idle " + std::to_string(ms_since_start(now) - since) + " ms between steps: " +
                    (steady ? "the old generation stopped falling" : "settle_s passed")});
    return true;
}

SearchResult RunController::search_result(const RunSummary& summary) const {
    SearchResult r;
    r.max_rate = search_->max_rate();
    r.first_failing_rate = search_->first_failing_rate();
    r.finished = search_->done();
    r.confirmed = search_->confirmed();
    const int first = first_step_phase(*spec_.search);
    for (int i = first; i < int(summary.phases.size()); ++i) {
        const Phase& phase = plan_.phases[size_t(i)];
        auto step = judge_step(*spec_.slo, spec_.kind, i, phase.rate, summary.phases[size_t(i)],
                               slo_->full_gcs(i));
        charge_loss(step);
        const auto& holds = search_->holds();
        // A step begun but never judged (the run stopped) ran as the search then stood.
        step.confirm =
            size_t(i - first) < holds.size() ? bool(holds[size_t(i - first)]) : search_->holding();
        const int64_t from_ms = summary.phases[size_t(i)].start_ms;
        step.old_gen = slo_->old_gen().span(from_ms, from_ms + int64_t(phase.duration_s * 1000));
        // A failed step needs no warning: marginal is a pass that may not hold.
        step.marginal =
            step.passed && step.old_gen && marginal(*step.old_gen, spec_.search->step_s);
        if (r.first_failing_rate && step.rate == *r.first_failing_rate && !step.failed.empty())
            r.failed_check = step.failed.front();
        r.steps.push_back(std::move(step));
    }
    return r;
}

void RunController::charge_loss(SearchStep& step) const {
    const auto it = lost_in_.find(step.phase);
    if (it == lost_in_.end()) return;
    SloCheck lost;
    lost.key = "agent_lost";
    lost.name = "agent lost";
    lost.scope = "phase " + std::to_string(step.phase + 1);
    lost.measured = double(it->second.size());
    lost.phase = step.phase;
    step.failed.insert(step.failed.begin(), lost);
    step.passed = false;
}

void RunController::charge_loss(SloVerdict& verdict, const RunSummary& summary) const {
    const auto lost = std::count_if(summary.agents.begin(), summary.agents.end(),
                                    [](const AgentTotals& a) { return a.lost; });
    if (lost == 0) return;
    SloCheck check;
    check.key = "agent_lost";
    check.name = "agent lost";
    check.scope = "run";
    check.measured = double(lost);
    verdict.checks.insert(verdict.checks.begin(), check);
    verdict.passed = false;
}

RunStatus RunController::final_status(const RunSummary& summary, std::string& error) const {
    const std::string unreached = engine_->first_connection_error();
    if (!unreached.empty() && never_answered(summary.overall.totals)) {
        error = "no operation reached a server; first error: " + unreached;
        return RunStatus::failed;
    }
    return stop_requests_.load() > 0 ? RunStatus::stopped : RunStatus::completed;
}

RunSummary RunController::run() {
    for (auto* o : observers_)
        o->on_start(spec_);
    const auto starting = Clock::now();
    try {
        engine_->start();
    } catch (const std::exception& e) {
        RunSummary failed = summary_.finish(RunStatus::failed);
        failed.error = e.what();
        failed.seed = spec_.seed;
        for (auto* o : observers_)
            o->on_end(failed);
        return failed;
    }
    // The clock starts once the engine is ready: what getting ready took is told, not
    // charged to the first tick.
    const auto ready_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - starting);
    for (auto* o : observers_)
        o->on_ready();
    start_ = last_sample_ = engine_->common_start().value_or(Clock::now());
    const auto wall_start =
        std::chrono::system_clock::now() +
        std::chrono::duration_cast<std::chrono::system_clock::duration>(start_ - Clock::now());
    for (auto* o : observers_)
        o->on_clock(
            std::chrono::duration_cast<std::chrono::milliseconds>(wall_start.time_since_epoch())
                .count());
    next_tick_ = start_ + std::chrono::milliseconds(spec_.tick_ms);
    emit_event({0, "start",
                "engine ready in " + std::to_string(ready_ms.count()) + " ms (connections" +
                    (engine_->prefill_sets() ? " and prefill)" : ")")});
    emit_engine_events(start_);
    const int begun = spec_.search ? run_search() : run_phases();
    emit_cut();
    const auto cut = last_sample_;
    engine_->stop();
    emit_engine_events(Clock::now());
    emit_notes();
    const auto now = Clock::now();
    if (draining_ && draining_->phase != begun) emit_drain(*draining_, now);
    if (begun >= 0) emit_drain({begun, cut}, now);
    RunSummary summary = summary_.finish(RunStatus::completed);
    summary.status = final_status(summary, summary.error);
    if (summary.status == RunStatus::stopped)
        emit_event({ms_since_start(cut), "stop", "stopped by request"});
    summary.prefill_sets = engine_->prefill_sets();
    summary.seed = spec_.seed;
    summary.agents = engine_->agent_totals();
    summary.phase_loads = phase_loads(spec_);
    summary.redis_cluster = is_redis_cluster(spec_);
    if (search_) {
        if (!follow_) summary.search = search_result(summary);
    } else if (slo_ && summary.status != RunStatus::failed) {
        summary.slo = slo_->verdict(summary);
        charge_loss(*summary.slo, summary);
    }
    for (auto* o : observers_)
        o->on_end(summary);
    return summary;
}

}  // namespace perflab
