// SPDX-License-Identifier: MIT
#include "slo_watch.h"

#include <algorithm>

#include "model/phase_span.h"

namespace perflab {

SloWatch::SloWatch(const RunSpec& spec, Emit emit, std::function<void()> stop)
    : spec_(spec),
      slo_(*spec.slo),
      emit_(std::move(emit)),
      stop_(std::move(stop)),
      window_ms_(int64_t(slo_.window_s * 1000)),
      phase_starts_ms_{0},
      phase_gcs_(spec.phases.size(), 0) {}

void SloWatch::phase_began(int index, int64_t t_ms) {
    std::lock_guard lock(mutex_);
    if (index > 0 && size_t(index) == phase_starts_ms_.size()) phase_starts_ms_.push_back(t_ms);
}

void SloWatch::on_probe_sample(const ProbeSample& sample) {
    old_gen_.add(sample);
    if (sample.kind == "jvm") {
        std::lock_guard lock(mutex_);
        jvm_last_ms_[sample.source] = std::max(jvm_last_ms_[sample.source], sample.t_ms);
    }
    if (sample.kind != "jvm" || sample.gap) return;
    const uint64_t full = sample.values.value("full_gc_delta", uint64_t{0});
    std::lock_guard lock(mutex_);
    saw_jvm_ = true;
    const size_t phase = phase_at(phase_starts_ms_, sample.t_ms);
    if (phase < phase_gcs_.size()) phase_gcs_[phase] += full;
    window_gcs_.emplace_back(sample.t_ms, full);
}

void SloWatch::on_sample(const IntervalSample& sample) {
    window_.push_back(sample);
    // A phase's drain sample (sent 0, an earlier phase) belongs to the window too: its
    // replies came in it. The window ends at the latest tick.
    if (sample.phase >= phase_) {
        phase_ = sample.phase;
        judge_window(sample.t_ms);
    }
}

void SloWatch::judge_window(int64_t now_ms) {
    while (!window_.empty() && window_.front().t_ms <= now_ms - window_ms_)
        window_.pop_front();
    std::optional<uint64_t> gcs;
    {
        std::lock_guard lock(mutex_);
        while (!window_gcs_.empty() && window_gcs_.front().first <= now_ms - window_ms_)
            window_gcs_.pop_front();
        if (saw_jvm_) {
            gcs = 0;
            for (const auto& [t, n] : window_gcs_)
                *gcs += n;
        }
    }
    IntervalSample totals;
    for (const auto& s : window_)
        totals.merge(s);
    std::vector<SloCheck> checks;
    check_scope(slo_, spec_.kind, totals, spec_.phases[size_t(phase_)].open(), gcs, "window",
                checks);
    {
        std::lock_guard lock(mutex_);
        window_checks_ = checks;
    }
    // A window shorter than window_s says too little to act on.
    if (now_ms < window_ms_) return;
    bool breach = false;
    for (const auto& c : checks) {
        if (c.passed) {
            breached_.erase(c.name);
            continue;
        }
        if (!breached_.insert(c.name).second) continue;
        breach = true;
        emit_({now_ms, "slo",
               "breach over the last " + std::to_string(window_ms_ / 1000) + " s: " + c.text()});
    }
    if (breach && slo_.abort && !stopping_) {
        stopping_ = true;
        for (SloCheck c : checks)
            if (!c.passed) {
                c.from_ms = std::max<int64_t>(0, now_ms - window_ms_);
                c.to_ms = now_ms;
                stopped_by_.push_back(std::move(c));
            }
        emit_({now_ms, "slo", "stopping the run: slo.abort is set"});
        stop_();
    }
}

SloVerdict SloWatch::verdict(const RunSummary& summary) const {
    std::vector<IntervalSample> phases;
    for (const auto& p : summary.phases)
        phases.push_back(p.totals);
    std::lock_guard lock(mutex_);
    std::vector<uint64_t> gcs;
    if (saw_jvm_)
        gcs.assign(phase_gcs_.begin(), phase_gcs_.begin() + std::ptrdiff_t(phases.size()));
    SloVerdict v = evaluate_slo(slo_, spec_, phases, summary.overall.totals, gcs);
    for (const SloCheck& c : stopped_by_) {
        v.checks.push_back(c);
        v.passed = false;
    }
    return v;
}

std::optional<uint64_t> SloWatch::full_gcs(int phase) const {
    std::lock_guard lock(mutex_);
    if (!saw_jvm_ || size_t(phase) >= phase_gcs_.size()) return std::nullopt;
    return phase_gcs_[size_t(phase)];
}

int SloWatch::jvms_past(int64_t t_ms) const {
    std::lock_guard lock(mutex_);
    return int(std::count_if(jvm_last_ms_.begin(), jvm_last_ms_.end(),
                             [&](const auto& last) { return last.second > t_ms; }));
}

std::vector<SloCheck> SloWatch::window_checks() const {
    std::lock_guard lock(mutex_);
    return window_checks_;
}

}  // namespace perflab
