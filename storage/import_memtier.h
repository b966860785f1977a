// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "import_span.h"
#include "model/histogram.h"
#include "model/sample.h"

namespace perflab {

// memtier_benchmark's --json-out-file (format version 2, memtier 1.4.0 and later): the "ALL
// STATS" of a single run. Its per-second "Time-Serie" of "Gets" and "Sets" become one-second
// ticks of the ops get and set with their counts and bytes, but no latencies: memtier gives
// each second percentiles, never a histogram. The whole run's latencies per op come from its
// "Compressed Histogram" (HdrHistogram, µs); without one, from its "Percentile Latencies".
struct MemtierRun {
    std::vector<IntervalSample> ticks;         // on the run's clock, which starts at "Start time"
    int64_t start_ms = 0;                      // wall clock, ms since the epoch
    std::map<std::string, Histogram> latency;  // the whole run's, per op
    // False when some op's latencies are its listed percentiles alone (with its min and max):
    // a histogram holding just those values, at their ranks.
    bool full_histograms = true;
    uint64_t connection_errors = 0;  // "Totals", memtier 2.3 and later
};

// Throws ImportError naming the line (JSON syntax) or the field, also for a second of a
// "Time-Serie" past the span allowed (import_span.h): each second up to it becomes a tick.
MemtierRun read_memtier(std::istream& in, int64_t max_span_s = kImportMaxSpanS);

}  // namespace perflab
