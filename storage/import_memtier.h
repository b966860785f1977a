// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "hdr_encoding.h"
#include "import_span.h"
#include "model/histogram.h"
#include "model/sample.h"

namespace perflab {

// memtier_benchmark's --json-out-file (format version 2, memtier 1.4.0 and later): the "ALL
// STATS" of a single run. Its per-second "Time-Serie" of "Gets" and "Sets" become one-second
// ticks of the ops get and set with their counts, but no latencies: memtier gives each second
// percentiles, never a histogram. The last tick ends at memtier's "Total duration", so a
// last second cut short is as long as it was. The whole run's latencies per op come from its
// "Compressed Histogram" (HdrHistogram, µs, each bucket at the value memtier reports for it),
// their sum from its "Accumulated Latency"; without a histogram, from its "Percentile
// Latencies". Hits and misses are the run's, from its rates: memtier counts none per second,
// so they are spread over the seconds in proportion to their gets. Bytes are value bytes as
// PerfLab counts them (the "data_size" of each set and each hit) when every value had that
// size; otherwise memtier's wire bytes, and `wire_bytes` says so (unknown before memtier 2.1,
// which recorded none).
struct MemtierRun {
    std::vector<IntervalSample> ticks;         // on the run's clock, which starts at "Start time"
    int64_t start_ms = 0;                      // wall clock, ms since the epoch
    std::map<std::string, Histogram> latency;  // the whole run's, per op
    // False when some op's latencies are its listed percentiles alone (with its min and max):
    // a histogram holding just those values, at their ranks.
    bool full_histograms = true;
    uint64_t connection_errors = 0;  // "Totals", memtier 2.3 and later
    bool interrupted = false;        // stopped by Ctrl+C before its time or request count
    bool wire_bytes = false;
    // False for a file whose Gets have no "Hits/sec" and "Misses/sec" (memtier before 1.4):
    // its ticks count no hit or miss, which every output then shows as unknown (hits_known).
    bool hits_recorded = true;
    // The run's memtier configuration, its "run information" and what PerfLab made of the
    // file: kept whole in the stored spec's "imported_from".
    nlohmann::json imported_from;
    // What memtier's own histograms could tell apart (2 significant digits in memtier 2.x).
    std::optional<hdr::Layout> histogram_layout;
};

// Throws ImportError naming the line (JSON syntax) or the field, also for a second of a
// "Time-Serie" past the span allowed (import_span.h): each second up to it becomes a tick.
MemtierRun read_memtier(std::istream& in, int64_t max_span_s = kImportMaxSpanS);

}  // namespace perflab
