// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "model/compare_stats.h"
#include "model/histogram.h"
#include "run_compare.h"

namespace perflab {

// One run's curves for the overlay, one point per stored tick, on a time axis that starts at
// the run's first tick so runs of different start-up lengths line up.
struct RunCurves {
    std::vector<double> t_s;
    std::vector<double> throughput;  // successful ops/s, as figures.h defines it
    std::vector<double> p50_ms;      // NaN for a tick without operations
    std::vector<double> p99_ms;
};

// Everything the compare view shows, read in one go off the GUI thread.
struct CompareData {
    Comparison comparison;
    std::vector<RunCurves> curves;      // per run, in the order asked for
    std::vector<Histogram> latency;     // per run: every op of the whole run merged
    std::vector<PercentileBand> bands;  // per run: its percentiles' 95% interval
};

// Sides of one or more runs (a series, an A/B experiment's): judged as compare_sides judges
// them; a side's curves and band are its first run's, its distribution all of its runs'.
// Throws std::invalid_argument for fewer than two sides, StoreError for an unknown run.
CompareData load_compare_sides(RunStore& store, const std::vector<std::vector<int64_t>>& sides);

RunCurves curves_of(const std::vector<IntervalSample>& samples);

}  // namespace perflab
