// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "model/sample.h"
#include "model/summary.h"
#include "run_store.h"

namespace perflab {

// The run's ticks as an HdrHistogram interval log (HistogramLogWriter's format 1.3): its
// header, then per tick one line per op the run had (tagged with the op's name: get, set, an
// HTTP target), each tick's histogram in the V2 compressed encoding, Base64. Values are
// microseconds, Interval_Max milliseconds, as the comment line says. Lines follow the ticks'
// order; timestamps are seconds since the run's start (its BaseTime), so a phase's drain
// tick, which overlaps the next phase, keeps its own time. In the open model each op's
// service time (from the actual send) follows under its tag with kServiceTagSuffix.
// Before each tick's tagged lines, an untagged one holds every op's latencies merged: the
// histogram HdrHistogram's HistogramLogProcessor reads when given no -tag. A summary-only run
// (an import whose ticks have counts but no latencies) has no intervals to log: this refuses
// it with a StoreError; the overload below logs its whole-run histograms as one interval.
std::string hlog_text(const RunInfo& run, const std::vector<IntervalSample>& samples);
std::string hlog_text(const RunInfo& run, const std::vector<IntervalSample>& samples,
                      const RunSummary& summary);

inline constexpr const char* kServiceTagSuffix = ".service";

// An op's name as a tag: HdrHistogram's readers split fields at spaces, commas and line ends.
std::string hlog_tag(const std::string& op);

}  // namespace perflab
