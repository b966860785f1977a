// SPDX-License-Identifier: MIT
#include "hlog_export.h"

#include <map>
#include <set>

#include "hdr_encoding.h"
#include "model/base64.h"
#include "run_report.h"
#include "sqlite.h"

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

std::string header(const RunInfo& run) {
    const std::string start = thousandths(run.started_at_ms);
    return "#[Logged with PerfLab, run " + std::to_string(run.id) +
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
}

// One interval's histogram; an empty tag is the untagged line.
void add_line(std::string& out, const std::string& tag, const std::string& times,
              const Histogram& h) {
    if (!tag.empty()) out += "Tag=" + tag + ",";
    out += times + thousandths(h.max()) + "," + base64_encode(hdr::compressed(h)) + "\n";
}

}  // namespace

std::string hlog_tag(const std::string& op) {
    std::string tag = op.empty() ? "op" : op;
    for (char& c : tag)
        if (c == ' ' || c == ',' || c == '\r' || c == '\n' || c == '\t') c = '_';
    return tag;
}

std::string hlog_text(const RunInfo& run, const std::vector<IntervalSample>& samples) {
    if (run.summary_only)
        throw StoreError("run " + std::to_string(run.id) +
                         " is summary only: its ticks hold counts but no latencies, so it has "
                         "no intervals to log");
    std::string out = header(run);
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
        add_line(out, "", times, s.latency());
        for (const auto& [name, tag] : tags) {
            const auto it = s.ops.find(name);
            add_line(out, tag, times, it == s.ops.end() ? none : it->second.latency);
            if (serviced.count(name))
                add_line(out, tag + kServiceTagSuffix, times,
                         it == s.ops.end() ? none : it->second.service);
        }
    }
    return out;
}

std::string hlog_text(const RunInfo& run, const std::vector<IntervalSample>& samples,
                      const RunSummary& summary) {
    if (!run.summary_only) return hlog_text(run, samples);
    // The whole run as its one interval: the histograms the import stored for it.
    std::string out = header(run);
    const IntervalSample& totals = summary.overall.totals;
    const int64_t length_ms = samples.empty() ? 0 : samples.back().t_ms;
    const std::string times = "0.000," + thousandths(length_ms) + ",";
    add_line(out, "", times, totals.latency());
    std::set<std::string> used;
    for (const auto& [name, op] : totals.ops) {
        if (op.latency.empty()) continue;
        std::string tag = hlog_tag(name);
        for (int n = 2; used.count(tag); ++n)
            tag = hlog_tag(name) + "_" + std::to_string(n);
        used.insert(tag);
        add_line(out, tag, times, op.latency);
    }
    return out;
}

}  // namespace perflab
