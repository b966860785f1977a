// SPDX-License-Identifier: MIT
#include "hlog_export.h"

#include <map>
#include <set>

#include "base64.h"
#include "hdr_encoding.h"
#include "run_report.h"

namespace perflab {

namespace {

// v / 1000 with three decimals (ms as seconds, µs as ms), from integers: no locale, no
// rounding.
std::string thousandths(int64_t v) {
    const std::string sign = v < 0 ? "-" : "";
    const int64_t a = v < 0 ? -v : v;
    const std::string frac = std::to_string(a % 1000);
    return sign + std::to_string(a / 1000) + "." + std::string(3 - frac.size(), '0') + frac;
}

// Every op that completed anything in the run, with a tag of its own. An op with no reply in
// a tick still gets its (empty) line, so each tag's timeline has no holes.
std::map<std::string, std::string> tags_of(const std::vector<IntervalSample>& samples) {
    std::map<std::string, std::string> tags;
    std::set<std::string> used;
    for (const auto& s : samples)
        for (const auto& [name, op] : s.ops) {
            if (op.count == 0 || tags.count(name)) continue;
            std::string tag = hlog_tag(name);
            for (int n = 2; used.count(tag); ++n)
                tag = hlog_tag(name) + "_" + std::to_string(n);
            used.insert(tag);
            tags[name] = tag;
        }
    return tags;
}

}  // namespace

std::string hlog_tag(const std::string& op) {
    std::string tag = op.empty() ? "op" : op;
    for (char& c : tag)
        if (c == ' ' || c == ',' || c == '\r' || c == '\n' || c == '\t') c = '_';
    return tag;
}

std::string hlog_text(const RunInfo& run, const std::vector<IntervalSample>& samples) {
    const std::string start = thousandths(run.started_at_ms);
    std::string out = "#[Logged with PerfLab, run " + std::to_string(run.id) +
                      ": histogram values in microseconds, Interval_Max in milliseconds]\n"
                      "#[Histogram log format version 1.3]\n"
                      "#[StartTime: " +
                      start + " (seconds since epoch), " + format_wall(run.started_at_ms) +
                      "]\n"
                      "#[BaseTime: " +
                      start +
                      " (seconds since epoch)]\n"
                      "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
                      "\"Interval_Compressed_Histogram\"\n";
    const auto tags = tags_of(samples);
    // Open model: each op's service time under TAG.service, for the ops that measured one.
    std::set<std::string> serviced;
    for (const auto& s : samples)
        for (const auto& [name, op] : s.ops)
            if (!op.service.empty()) serviced.insert(name);
    const Histogram none;
    for (const auto& s : samples) {
        const std::string times =
            thousandths(s.t_ms - s.interval_ms) + "," + thousandths(s.interval_ms) + ",";
        const auto line = [&](const std::string& tag, const Histogram& h) {
            out += "Tag=" + tag + "," + times + thousandths(h.max()) + "," +
                   base64_encode(hdr::compressed(h)) + "\n";
        };
        for (const auto& [name, tag] : tags) {
            const auto it = s.ops.find(name);
            line(tag, it == s.ops.end() ? none : it->second.latency);
            if (serviced.count(name))
                line(tag + kServiceTagSuffix, it == s.ops.end() ? none : it->second.service);
        }
    }
    return out;
}

}  // namespace perflab
