// SPDX-License-Identifier: MIT
#include "rate_search.h"

#include <algorithm>
#include <cmath>

#include "figures.h"

namespace perflab {

namespace {

// Rates are whole ops per second above 10/s, so a table reads 412 and not 412.109375.
double tidy(double rate) {
    return rate >= 10 ? std::round(rate) : std::round(rate * 100) / 100;
}

}  // namespace

RateSearch::RateSearch(const SearchSpec& spec) : spec_(spec), rate_(tidy(spec.rate_from)) {}

double RateSearch::duration_s() const {
    return holding_ ? confirm_seconds(spec_) : spec_.step_s;
}

void RateSearch::record(bool passed) {
    if (done_) return;
    holds_.push_back(holding_);
    if (holding_) {
        if (passed) {
            pass_ = rate_;
            confirmed_ = true;
            done_ = true;
            return;
        }
        // The bisection's answer did not hold: it is a failing rate, and no rate is the
        // answer until a lower hold passes.
        fail_ = rate_;
        pass_.reset();
        const double lower = tidy(rate_ * (1 - spec_.precision));
        if (int(std::count(holds_.begin(), holds_.end(), true)) >= kMaxHolds || lower <= 0 ||
            lower >= rate_) {
            done_ = true;
            return;
        }
        rate_ = lower;
        return;
    }
    (passed ? pass_ : fail_) = rate_;
    if (!fail_) {
        if (rate_ >= spec_.rate_to) return end_bisection();
        rate_ = std::min(spec_.rate_to, tidy(rate_ * 2));
        return;
    }
    if (!pass_ || *fail_ <= *pass_ * (1 + spec_.precision)) return end_bisection();
    const double next = tidy((*pass_ + *fail_) / 2);
    if (next <= *pass_ || next >= *fail_) return end_bisection();
    rate_ = next;
}

void RateSearch::end_bisection() {
    if (!pass_ || confirm_seconds(spec_) <= 0) {
        done_ = true;
        return;
    }
    holding_ = true;
    rate_ = *pass_;
}

int RateSearch::max_steps(const SearchSpec& spec) {
    const int rising = int(std::ceil(std::log2(spec.rate_to / spec.rate_from))) + 1;
    // After the first failure the bracket spans at most a doubling; each step halves it.
    const int bisecting = int(std::ceil(std::log2(1 / spec.precision))) + 1;
    return rising + bisecting + (confirm_seconds(spec) > 0 ? kMaxHolds : 0);
}

double confirm_seconds(const SearchSpec& search) {
    return search.confirm_s.value_or(3 * search.step_s);
}

Phase search_step(const SearchSpec& search, double rate, double duration_s) {
    Phase p;
    p.duration_s = duration_s > 0 ? duration_s : search.step_s;
    p.rate = rate;
    p.concurrency = search.concurrency;
    return p;
}

int first_step_phase(const SearchSpec& search) {
    return search.warmup_s > 0 ? 1 : 0;
}

SearchStep judge_step(const SloSpec& slo, RunKind kind, int phase, double rate,
                      const PhaseTotals& totals, std::optional<uint64_t> full_gcs) {
    SearchStep step;
    step.phase = phase;
    step.rate = rate;
    const Figures f = figures(kind, totals);
    step.throughput = f.throughput;
    step.error_rate = f.error_rate;
    step.hit_rate = f.hit_rate;
    step.full_gcs = full_gcs;
    if (f.latency.count()) {
        step.p50_ms = double(f.latency.percentile(50)) / 1000;
        step.p99_ms = double(f.latency.percentile(99)) / 1000;
        step.p999_ms = double(f.latency.percentile(99.9)) / 1000;
    }
    std::vector<SloCheck> checks;
    check_scope(slo, kind, totals.totals, true, full_gcs, "phase " + std::to_string(phase + 1),
                checks);
    step.passed = true;
    for (auto& c : checks) {
        c.phase = phase;
        if (c.passed) continue;
        step.passed = false;
        step.failed.push_back(std::move(c));
    }
    return step;
}

}  // namespace perflab
