// SPDX-License-Identifier: MIT
#include "run_controller.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "model/format.h"

namespace perflab {

namespace {

// How often a count-limited phase is checked for its end between ticks.
constexpr auto kPollInterval = std::chrono::milliseconds(10);
// How long a timed phase's end waits for operations still in flight, so they count in the
// phase that started them; a stalled server does not hold the next phase back longer.
constexpr auto kPhaseGrace = std::chrono::seconds(1);

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
    return s;
}

}  // namespace

RunController::RunController(RunSpec spec, std::unique_ptr<LoadEngine> engine)
    : spec_(std::move(spec)), engine_(std::move(engine)), summary_(spec_.kind) {}

RunController::~RunController() = default;

void RunController::add_observer(RunObserver* observer) {
    observers_.push_back(observer);
}

void RunController::request_stop() {
    {
        std::lock_guard lock(mutex_);
        stop_.store(true);
    }
    engine_->cancel();
    wake_.notify_all();
}

int64_t RunController::ms_since_start(Clock::time_point t) const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t - start_).count();
}

void RunController::wait_for_idle_engine(Clock::time_point deadline) {
    while (!engine_->phase_done() && Clock::now() < deadline && !stop_.load())
        std::this_thread::sleep_for(std::chrono::microseconds(200));
}

bool RunController::wait_until(Clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    return wake_.wait_until(lock, deadline, [this] { return stop_.load(); });
}

void RunController::emit_event(const RunEvent& event) {
    for (auto* o : observers_)
        o->on_event(event);
}

void RunController::emit_sample(int phase, Clock::time_point now) {
    IntervalSample sample;
    engine_->collect(sample);
    sample.t_ms = ms_since_start(now);
    sample.interval_ms = ms_since_start(now) - ms_since_start(last_sample_);
    sample.phase = phase;
    const auto& p = spec_.phases[size_t(phase)];
    if (p.open()) {
        const auto mid = last_sample_ + (now - last_sample_) / 2;
        sample.planned_rate = p.rate_at(std::chrono::duration<double>(mid - phase_start_).count());
    }
    last_sample_ = now;
    if (sample.interval_ms <= 0 && sample.total_ops() == 0) return;
    summary_.add(sample);
    for (auto* o : observers_)
        o->on_sample(sample);
}

std::optional<Clock::time_point> RunController::run_phase(int index, Clock::time_point phase_start,
                                                          bool last) {
    const Phase& phase = spec_.phases[size_t(index)];
    phase_start_ = phase_start;
    PhasePlan plan{index, phase, phase_start, phase_connections(spec_, phase)};
    engine_->begin_phase(plan);
    emit_event({ms_since_start(phase_start), "phase",
                "phase " + std::to_string(index + 1) + ": " + describe(phase, plan.connections)});
    const auto phase_end = phase.duration_s > 0
                               ? phase_start + std::chrono::duration_cast<Clock::duration>(
                                                   std::chrono::duration<double>(phase.duration_s))
                               : Clock::time_point::max();
    const auto tick = std::chrono::milliseconds(spec_.tick_ms);
    Clock::time_point ended_at;
    for (;;) {
        auto wake = std::min(next_tick_, phase_end);
        if (phase.ops > 0) wake = std::min(wake, Clock::now() + kPollInterval);
        const bool stopped = wait_until(wake);
        const auto now = Clock::now();
        const bool timed_out = now >= phase_end;
        const bool ended = timed_out || (phase.ops > 0 && engine_->phase_done());
        ended_at = timed_out ? phase_end : now;
        if (stopped || (ended && last))
            engine_->stop();
        else if (timed_out)
            wait_for_idle_engine(now + kPhaseGrace);
        if (stopped || ended || now >= next_tick_) {
            emit_sample(index, now);
            while (next_tick_ <= now)
                next_tick_ += tick;
        }
        if (stopped || ended) break;
    }
    for (auto* o : observers_)
        o->on_phase_end(summary_.phase(index));
    if (stop_.load()) return std::nullopt;
    return ended_at;
}

RunSummary RunController::run() {
    for (auto* o : observers_)
        o->on_start(spec_);
    try {
        engine_->start();
    } catch (const std::exception& e) {
        RunSummary failed = summary_.finish(RunStatus::failed);
        failed.error = e.what();
        for (auto* o : observers_)
            o->on_end(failed);
        return failed;
    }
    start_ = last_sample_ = Clock::now();
    next_tick_ = start_ + std::chrono::milliseconds(spec_.tick_ms);
    bool completed = true;
    auto phase_start = start_;
    const int phases = int(spec_.phases.size());
    for (int i = 0; i < phases && completed; ++i) {
        const auto ended = run_phase(i, phase_start, i == phases - 1);
        completed = ended.has_value();
        if (ended) phase_start = *ended;
    }
    engine_->stop();
    if (!completed) emit_event({ms_since_start(Clock::now()), "stop", "stopped by request"});
    RunSummary summary = summary_.finish(completed ? RunStatus::completed : RunStatus::stopped);
    summary.prefill_sets = engine_->prefill_sets();
    summary.wait_s = engine_->wait_s();
    for (auto* o : observers_)
        o->on_end(summary);
    return summary;
}

}  // namespace perflab
