// SPDX-License-Identifier: MIT
#include "old_gen.h"

#include <algorithm>
#include <limits>

namespace perflab {

namespace {

using Series = std::vector<std::pair<int64_t, double>>;

double seconds_to_full(const OldGenSpan& s) {
    return s.growth_pct_per_s > 0 ? (100 - s.end_pct) / s.growth_pct_per_s
                                  : std::numeric_limits<double>::infinity();
}

std::optional<OldGenSpan> span_of(const Series& series, int64_t from_ms, int64_t to_ms) {
    const auto after = [](int64_t t) {
        return [t](const std::pair<int64_t, double>& s) { return s.first > t; };
    };
    const auto first_after_from = std::find_if(series.begin(), series.end(), after(from_ms));
    const auto first_after_to = std::find_if(series.begin(), series.end(), after(to_ms));
    if (first_after_to == series.begin()) return std::nullopt;
    const auto start = first_after_from == series.begin() ? series.begin() : first_after_from - 1;
    const auto end = first_after_to - 1;
    if (end <= start) return std::nullopt;
    OldGenSpan s;
    s.start_pct = start->second;
    s.end_pct = end->second;
    s.growth_pct_per_s = (s.end_pct - s.start_pct) / (double(end->first - start->first) / 1000);
    return s;
}

}  // namespace

bool marginal(const OldGenSpan& span, double step_s) {
    return seconds_to_full(span) <= 2 * step_s;
}

void OldGenTrack::add(const ProbeSample& sample) {
    if (sample.kind != "jvm" || sample.gap) return;
    const auto pct = sample.values.find("old_pct");
    if (pct == sample.values.end() || !pct->is_number()) return;
    std::lock_guard lock(mutex_);
    jvms_[sample.source].emplace_back(sample.t_ms, pct->get<double>());
}

std::optional<OldGenSpan> OldGenTrack::span(int64_t from_ms, int64_t to_ms) const {
    std::lock_guard lock(mutex_);
    std::optional<OldGenSpan> worst;
    for (const auto& [source, series] : jvms_) {
        const auto s = span_of(series, from_ms, to_ms);
        if (s && (!worst || seconds_to_full(*s) < seconds_to_full(*worst))) worst = s;
    }
    return worst;
}

bool OldGenTrack::stopped_falling(int64_t since_ms) const {
    std::lock_guard lock(mutex_);
    if (jvms_.empty()) return false;
    for (const auto& [source, series] : jvms_) {
        if (series.size() < 2) return false;
        const auto& last = series.back();
        const auto& before = series[series.size() - 2];
        if (before.first <= since_ms || last.second < before.second) return false;
    }
    return true;
}

}  // namespace perflab
