// SPDX-License-Identifier: MIT
#include "import_hlog.h"

#include <cmath>
#include <map>
#include <optional>
#include <string>

#include "base64.h"
#include "hdr_encoding.h"
#include "hlog_export.h"
#include "import_record.h"

namespace perflab {

namespace {

// "#[BaseTime: 1764555600.123 (seconds since epoch)]" → 1764555600.123
std::optional<double> header_seconds(const std::string& line, const char* key) {
    const std::string prefix = std::string("#[") + key + ": ";
    if (line.rfind(prefix, 0) != 0) return std::nullopt;
    try {
        return std::stod(line.substr(prefix.size()));
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

double number(const std::string& text, int64_t line, const char* field) {
    try {
        size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size() && std::isfinite(v) && v >= 0) return v;
    } catch (const std::exception&) {
    }
    throw ImportError(line, field, "expected a number of seconds, got \"" + text + "\"");
}

struct Interval {
    int64_t length_ms = 0;
    std::map<std::string, OpSample> ops;  // histograms only: latency and service time
};

}  // namespace

HlogRun read_hlog(std::istream& in) {
    std::optional<double> base, start;
    std::map<int64_t, Interval> intervals;  // by start, ms since the epoch
    std::string line;
    int64_t number_of_line = 0;
    while (std::getline(in, line)) {
        ++number_of_line;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        if (line[0] == '#') {
            if (auto v = header_seconds(line, "BaseTime")) base = v;
            if (auto v = header_seconds(line, "StartTime")) start = v;
            continue;
        }
        if (line.rfind("\"StartTimestamp\"", 0) == 0) continue;
        std::string op = "all";
        std::string rest = line;
        if (rest.rfind("Tag=", 0) == 0) {
            const size_t comma = rest.find(',');
            if (comma == std::string::npos)
                throw ImportError(number_of_line, "Tag", "a tag with no interval after it");
            op = rest.substr(4, comma - 4);
            rest = rest.substr(comma + 1);
        }
        std::vector<std::string> fields;
        for (size_t from = 0;;) {
            const size_t comma = rest.find(',', from);
            fields.push_back(rest.substr(from, comma - from));
            if (comma == std::string::npos) break;
            from = comma + 1;
        }
        if (fields.size() != 4)
            throw ImportError(number_of_line, "",
                              "expected StartTimestamp,Interval_Length,Interval_Max,"
                              "Interval_Compressed_Histogram");
        const double at_s = number(fields[0], number_of_line, "StartTimestamp");
        const double length_s = number(fields[1], number_of_line, "Interval_Length");
        const double max_ms = number(fields[2], number_of_line, "Interval_Max");
        const auto bytes = base64_decode(fields[3]);
        if (!bytes)
            throw ImportError(number_of_line, "Interval_Compressed_Histogram", "not base64");
        std::string error;
        auto h = hdr::decompressed(*bytes, error);
        if (!h) throw ImportError(number_of_line, "Interval_Compressed_Histogram", error);
        // Interval_Max is in the writer's unit (PerfLab's: ms for µs values); one that does
        // not land in the maximum's bucket is in another unit and is left alone.
        h->refine_max(std::llround(max_ms * 1000));
        // Small timestamps are relative to the log's base (HistogramLogWriter's convention).
        const double origin = base ? *base : start && at_s < 1e9 ? *start : 0;
        const auto begin_ms = int64_t(std::llround((origin + at_s) * 1000));
        Interval& interval = intervals[begin_ms];
        interval.length_ms = std::max(interval.length_ms, int64_t(std::llround(length_s * 1000)));
        // PerfLab's own logs carry an op's service time under a tag of its own.
        const std::string suffix = kServiceTagSuffix;
        if (op.size() > suffix.size() && op.ends_with(suffix))
            interval.ops[op.substr(0, op.size() - suffix.size())].service.merge(*h);
        else
            interval.ops[op].latency.merge(*h);
    }
    if (intervals.empty()) throw ImportError(number_of_line, "", "no interval in the log");
    HlogRun run;
    run.start_ms = intervals.begin()->first;
    for (const auto& [begin_ms, interval] : intervals) {
        IntervalSample s;
        const int64_t from_ms = begin_ms - run.start_ms;
        s.t_ms = from_ms + interval.length_ms;
        s.interval_ms = interval.length_ms;
        for (const auto& [op, sample] : interval.ops) {
            OpSample& o = s.ops[op];
            o.count = sample.latency.count();
            o.latency = sample.latency;
            o.service = sample.service;
            if (o.count) s.add_sends(o.count, from_ms * 1000, s.t_ms * 1000);
        }
        if (s.sent) s.add_reply_time(s.t_ms * 1000);
        run.ticks.push_back(std::move(s));
    }
    return run;
}

}  // namespace perflab
