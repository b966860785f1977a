// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "hdr_encoding.h"
#include "import_span.h"
#include "model/sample.h"

namespace perflab {

// An HdrHistogram interval log (.hlog) as ticks: one per interval, one op per tag (an
// untagged line's op is "all"), values taken as µs, as `perflab export --format hlog` writes
// them. Timestamps are relative to the log's BaseTime (or StartTime) when it has one.
// Its histograms are kept encoded and deflated (a few hundred bytes each, where a live one
// maps tens of KB), so a day of one-second intervals reads in bounded memory.
class HlogRun {
  public:
    int64_t start_ms() const { return start_ms_; }  // the first interval's, since the epoch
    uint64_t requests() const { return requests_; }
    const std::set<std::string>& ops() const { return ops_; }
    size_t intervals() const { return intervals_.size(); }
    // The coarsest layout among the log's histograms when one is coarser than PerfLab's (a
    // memtier log's 2 significant digits): what the run's figures can tell apart.
    const std::optional<hdr::Layout>& coarser_layout() const { return coarser_layout_; }
    // Hands f each interval in order as a tick on the run's clock, which starts at the first
    // interval; one tick's histograms alive at a time. The run is empty after.
    void drain(const std::function<void(IntervalSample&&)>& f);

  private:
    friend HlogRun read_hlog(std::istream& in, int64_t max_span_s);
    struct EncodedOp {
        std::string latency;  // Histogram::encode(), deflated; empty: none
        std::string service;
    };
    struct Interval {
        int64_t length_ms = 0;
        std::map<std::string, EncodedOp> ops;
    };
    std::map<int64_t, Interval> intervals_;  // by start, ms since the epoch
    int64_t start_ms_ = 0;
    uint64_t requests_ = 0;
    std::set<std::string> ops_;
    std::optional<hdr::Layout> coarser_layout_;
};

// After a first line of comments ('#'), whether what follows them is an HdrHistogram log's:
// its legend, a tagged interval or an interval's timestamp. Reads `in` up to that line.
bool hlog_after_comments(std::istream& in);

// Throws ImportError naming the line for a line that is not an interval of the format, or
// whose time is implausible or past the span allowed (import_span.h).
HlogRun read_hlog(std::istream& in, int64_t max_span_s = kImportMaxSpanS);

}  // namespace perflab
