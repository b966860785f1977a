// SPDX-License-Identifier: MIT
#include "compare_data.h"

#include <limits>
#include <stdexcept>

#include "percentile_chart.h"

namespace perflab {

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

double ms(int64_t us) {
    return double(us) / 1000.0;
}

}  // namespace

RunCurves curves_of(const std::vector<IntervalSample>& samples) {
    RunCurves c;
    int64_t origin_ms = -1;
    int phase = 0;
    for (const IntervalSample& s : samples) {
        // A phase's drain overlaps the next phase's ticks: drawn, it would be a dip in them.
        if (s.interval_ms <= 0 || s.drain || s.phase < phase) continue;
        phase = s.phase;
        if (origin_ms < 0) origin_ms = s.t_ms - s.interval_ms;
        const Histogram h = s.latency();
        c.t_s.push_back(double(s.t_ms - origin_ms) / 1000.0);
        c.throughput.push_back(double(s.total_ops() - s.total_errors()) / s.seconds());
        c.p50_ms.push_back(h.empty() ? kNone : ms(h.percentile(50)));
        c.p99_ms.push_back(h.empty() ? kNone : ms(h.percentile(99)));
    }
    return c;
}

CompareData load_compare_sides(RunStore& store, const std::vector<std::vector<int64_t>>& sides) {
    if (sides.size() < 2)
        throw std::invalid_argument("compare needs at least two runs, got " +
                                    std::to_string(sides.size()));
    CompareData data;
    data.comparison = compare_sides(store, sides);
    for (const auto& side : sides) {
        const auto samples = store.samples(side.front());
        data.curves.push_back(curves_of(samples));
        Histogram latency;
        for (const int64_t id : side)
            latency.merge(store.summary(id).overall.totals.latency());
        data.latency.push_back(std::move(latency));
        std::vector<double> percentiles;
        for (const double x : PercentileChart::grid(data.latency.back().count()))
            percentiles.push_back(PercentileChart::percentile_at(x));
        StatOptions band;
        band.resamples = 200;
        data.bands.push_back(percentile_band(samples, percentiles, band));
    }
    return data;
}

}  // namespace perflab
