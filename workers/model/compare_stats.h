// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sample.h"
#include "spec.h"

namespace perflab {

// Is B's figure better or worse than A's, beyond the noise its runs show?
//
// Each side is one or more runs' ticks. A bootstrap resamples each side and recomputes every
// figure from the drawn ticks: rates as totals over time, percentiles from the drawn ticks'
// merged histograms. A side's figure (DeltaEstimate::a, b) is the same figure over all of its
// runs' ticks pooled, the one the interval is about.
// - Within a run, ticks are drawn in circular blocks of consecutive ticks where they depend on
//   each other (a GC, a cache filling, a compaction lasting several ticks). The block length
//   comes from every judged series of the run (per tick: throughput, mean and median latency,
//   error and hit fractions), the longest any asks for: Politis & White's rule, or an AR(1)
//   plug-in where that is longer. A run of more than 240 ticks is resampled in groups of
//   consecutive ticks (at most 240).
// - A side of one run holds the noise within that run only: a second run of the same server
//   (another warm-up, heap, or load beside it on the machine) can differ by more.
// - A side of several runs (a --repeat series) is resampled in two levels: its runs drawn with
//   replacement, then blocks within each drawn run, so that run-to-run variance is in the
//   interval.
// The 95% interval of B's delta against A is the 2.5th to 97.5th percentile of the resampled
// deltas, widened about the delta for what few blocks or few runs understate.
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
    // Earlier runs of the same spec on the same machine, each its ticks. With three or more,
    // their spread from run to run (Student's t over their figures) widens the interval of
    // every side of one run: the run-to-run noise one run cannot show.
    std::vector<std::vector<IntervalSample>> history;
};

// `a` and `b`: per run of a side, its ticks (drains left out).
std::vector<DeltaEstimate> compare_ticks(RunKind kind,
                                         const std::vector<std::vector<IntervalSample>>& a,
                                         const std::vector<std::vector<IntervalSample>>& b,
                                         const StatOptions& options = {});

// The length of the blocks compare_ticks draws a run's ticks in (given as it takes them); 1: one
// by one.
size_t block_length(const std::vector<IntervalSample>& ticks);

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
