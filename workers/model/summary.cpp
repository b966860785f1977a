// SPDX-License-Identifier: MIT
#include "summary.h"

#include <algorithm>

namespace perflab {

const char* to_string(RunStatus s) {
    static const char* names[] = {"running", "completed",   "stopped",
                                  "failed",  "interrupted", "imported"};
    return names[int(s)];
}

bool tells_redirections(const RunSummary& s) {
    return s.redis_cluster || s.overall.totals.moved + s.overall.totals.asked > 0;
}

bool is_redis_cluster(const RunSpec& spec) {
    return spec.cache && spec.cache->protocol == CacheProtocol::redis && spec.cache->redis.cluster;
}

SummaryBuilder::SummaryBuilder(RunKind kind) {
    summary_.kind = kind;
}

namespace {

// A phase's last sample (its drain) overlaps the next phase's first ticks: durations are
// spans, not sums of intervals.
void add_to(PhaseTotals& p, const IntervalSample& sample) {
    const int64_t start = sample.t_ms - sample.interval_ms;
    const bool first = p.totals.interval_ms == 0 && p.totals.t_ms == 0;
    p.start_ms = first ? start : std::min(p.start_ms, start);
    p.totals.merge(sample);
    p.totals.interval_ms = p.totals.t_ms - p.start_ms;
    p.duration_s = p.totals.seconds();
}

}  // namespace

void SummaryBuilder::add(const IntervalSample& sample) {
    while (int(summary_.phases.size()) <= sample.phase)
        summary_.phases.push_back({int(summary_.phases.size()), 0, {}, 0});
    add_to(summary_.phases[size_t(sample.phase)], sample);
    add_to(summary_.overall, sample);
}

PhaseTotals SummaryBuilder::phase(int index) const {
    if (index >= 0 && size_t(index) < summary_.phases.size()) return summary_.phases[size_t(index)];
    return {index, 0, {}, 0};
}

RunSummary SummaryBuilder::finish(RunStatus status) const {
    RunSummary s = summary_;
    s.status = status;
    return s;
}

}  // namespace perflab
