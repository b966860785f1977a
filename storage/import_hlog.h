// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <istream>
#include <vector>

#include "model/sample.h"

namespace perflab {

// An HdrHistogram interval log (.hlog) as ticks: one per interval, one op per tag (an
// untagged line's op is "all"), values taken as µs, as `perflab export --format hlog` writes
// them. Timestamps are relative to the log's BaseTime (or StartTime) when it has one.
struct HlogRun {
    std::vector<IntervalSample> ticks;  // on the run's clock, which starts at the first interval
    int64_t start_ms = 0;               // wall clock of the first interval, ms since the epoch
};

// Throws ImportError naming the line for a line that is not an interval of the format.
HlogRun read_hlog(std::istream& in);

}  // namespace perflab
