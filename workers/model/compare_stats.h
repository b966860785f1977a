// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sample.h"
#include "spec.h"

namespace perflab {

// Is run B's figure better or worse than run A's, beyond the run-to-run noise?
//
// Each side is one or more runs' ticks. A bootstrap resamples each run's ticks and recomputes
// every figure from them: rates as totals over time, percentiles from the resampled ticks'
// merged histograms. Where a run's ticks are autocorrelated (a server's state lasting over
// several ticks) they are drawn in circular blocks of ⌈n^⅓⌉ consecutive ticks, else one by
// one. A run of more than 240 ticks is resampled in groups of consecutive ticks (at most 240).
// The 95% interval of B's delta against A is the 2.5th to 97.5th percentile of the
// resampled deltas.
enum class Verdict { better, worse, same, too_few_ticks };
const char* to_string(Verdict v);

struct StatFigure {
    std::string name;  // as the comparison names it: "throughput", "p99_us"...
    bool higher_is_better;
    bool fraction;  // error rate, success, hit rate: deltas in percentage points
};

// The figures a verdict is given for, for a kind of run.
std::vector<StatFigure> stat_figures(RunKind kind);

struct DeltaEstimate {
    StatFigure figure;
    double a = 0, b = 0;  // the figure over each side's ticks
    // B against A: relative in % (or in percentage points for a fraction) and its interval.
    double delta = 0, lo = 0, hi = 0;
    Verdict verdict = Verdict::same;
};

struct StatOptions {
    double threshold_pct = 5;  // a smaller delta is `same` (fractions: threshold / 5 points)
    int resamples = 1000;
    uint64_t seed = 1;
    size_t min_ticks = 10;  // per side, or `too_few_ticks`
};

// `a` and `b`: per run of a side, its ticks (drains left out).
std::vector<DeltaEstimate> compare_ticks(RunKind kind,
                                         const std::vector<std::vector<IntervalSample>>& a,
                                         const std::vector<std::vector<IntervalSample>>& b,
                                         const StatOptions& options = {});

// One run's latency percentiles with their 95% interval, its ticks resampled as compare
// resamples them: at each of `percentiles` (ascending, 0..100), lo_us and hi_us. For drawing a
// distribution with its band of uncertainty.
struct PercentileBand {
    std::vector<double> percentiles;
    std::vector<double> lo_us, hi_us;
};
PercentileBand percentile_band(const std::vector<IntervalSample>& ticks,
                               const std::vector<double>& percentiles,
                               const StatOptions& options = {});

}  // namespace perflab
