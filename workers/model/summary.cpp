// SPDX-License-Identifier: MIT
#include "summary.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "format.h"

namespace perflab {

const char* to_string(RunStatus s) {
    static const char* names[] = {"running", "completed", "stopped", "failed", "interrupted"};
    return names[int(s)];
}

SummaryBuilder::SummaryBuilder(RunKind kind) {
    summary_.kind = kind;
}

namespace {

// A phase's last sample (its drain) overlaps the next phase's first ticks: durations are
// spans, not sums of intervals.
void add_to(PhaseTotals& p, const IntervalSample& sample) {
    const int64_t start = sample.t_ms - sample.interval_ms;
    const bool first = p.totals.interval_ms == 0 && p.totals.t_ms == 0;
    p.start_ms = first ? start : std::min(p.start_ms, start);
    p.totals.merge(sample);
    p.totals.interval_ms = p.totals.t_ms - p.start_ms;
    p.duration_s = p.totals.seconds();
}

}  // namespace

void SummaryBuilder::add(const IntervalSample& sample) {
    while (int(summary_.phases.size()) <= sample.phase)
        summary_.phases.push_back({int(summary_.phases.size()), 0, {}, 0});
    add_to(summary_.phases[size_t(sample.phase)], sample);
    add_to(summary_.overall, sample);
}

PhaseTotals SummaryBuilder::phase(int index) const {
    if (index >= 0 && size_t(index) < summary_.phases.size()) return summary_.phases[size_t(index)];
    return {index, 0, {}, 0};
}

RunSummary SummaryBuilder::finish(RunStatus status) const {
    RunSummary s = summary_;
    s.status = status;
    return s;
}

nlohmann::json latency_json(const Histogram& h) {
    return {{"min", h.min()},
            {"mean", std::round(h.mean() * 100) / 100},
            {"p50", h.percentile(50)},
            {"p90", h.percentile(90)},
            {"p95", h.percentile(95)},
            {"p99", h.percentile(99)},
            {"p999", h.percentile(99.9)},
            {"max", h.max()}};
}

nlohmann::json to_json(const PhaseTotals& p) {
    const auto& t = p.totals;
    nlohmann::json ops = nlohmann::json::object();
    for (const auto& [name, op] : t.ops)
        ops[name] = {{"count", op.count},
                     {"errors", op.errors},
                     {"rate", p.duration_s > 0 ? double(op.count) / p.duration_s : 0.0},
                     {"latency_us", latency_json(op.latency)}};
    nlohmann::json j = {{"ops", ops},
                        {"hits", t.hits},
                        {"misses", t.misses},
                        {"hit_rate", t.hit_rate()},
                        {"bytes_in", t.bytes_in},
                        {"bytes_out", t.bytes_out},
                        {"duration_s", p.duration_s},
                        {"late", t.late},
                        {"sent", t.sent},
                        {"dropped", t.dropped},
                        {"errors", t.errors}};
    if (p.phase >= 0) j["phase"] = p.phase;
    return j;
}

nlohmann::json to_json(const RunSummary& s) {
    nlohmann::json j = to_json(s.overall);
    j["kind"] = to_string(s.kind);
    j["status"] = to_string(s.status);
    if (!s.error.empty()) j["error"] = s.error;
    j["prefill_sets"] = s.prefill_sets;
    j["phases"] = nlohmann::json::array();
    for (const auto& p : s.phases)
        j["phases"].push_back(to_json(p));
    return j;
}

namespace {

void write_totals(std::ostream& out, const PhaseTotals& p) {
    const auto& t = p.totals;
    char line[256];
    std::snprintf(line, sizeof line, "  %-8s %10s %11s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "op",
                  "count", "rate/s", "errors", "min", "mean", "p50", "p90", "p95", "p99", "p99.9",
                  "max");
    out << line;
    for (const auto& [name, op] : t.ops) {
        // Both cache ops are always counted; an op the run never sent is no row of the report.
        if (op.count == 0 && op.errors == 0) continue;
        const auto& h = op.latency;
        const double rate = p.duration_s > 0 ? double(op.count) / p.duration_s : 0.0;
        std::snprintf(
            line, sizeof line, "  %-8s %10llu %11.1f %8llu %8s %8s %8s %8s %8s %8s %8s %8s\n",
            name.c_str(), static_cast<unsigned long long>(op.count), rate,
            static_cast<unsigned long long>(op.errors), format_latency_us(h.min()).c_str(),
            format_latency_us(int64_t(h.mean())).c_str(),
            format_latency_us(h.percentile(50)).c_str(),
            format_latency_us(h.percentile(90)).c_str(),
            format_latency_us(h.percentile(95)).c_str(),
            format_latency_us(h.percentile(99)).c_str(),
            format_latency_us(h.percentile(99.9)).c_str(), format_latency_us(h.max()).c_str());
        out << line;
    }
    if (t.hits + t.misses > 0)
        out << "  hit rate " << format_fixed(t.hit_rate() * 100, 2) << "% (" << t.hits << " hits, "
            << t.misses << " misses)\n";
    out << "  bytes in " << format_bytes(t.bytes_in) << ", out " << format_bytes(t.bytes_out)
        << "\n";
    if (t.late) out << "  late sends " << t.late << "\n";
    if (t.dropped) out << "  dropped " << t.dropped << " (due, never sent)\n";
    for (const auto& [kind, n] : t.errors)
        out << "  error " << kind << ": " << n << "\n";
}

}  // namespace

std::string summary_text(const RunSummary& s) {
    std::ostringstream out;
    for (const auto& p : s.phases) {
        out << "Phase " << p.phase + 1 << " (" << format_fixed(p.duration_s, 2) << " s)\n";
        write_totals(out, p);
    }
    out << "Overall (" << format_fixed(s.overall.duration_s, 2) << " s, " << to_string(s.status)
        << ")\n";
    write_totals(out, s.overall);
    if (s.prefill_sets) out << "  prefill: " << s.prefill_sets << " keys set before phase 1\n";
    if (!s.error.empty()) out << "  failed: " << s.error << "\n";
    return out.str();
}

}  // namespace perflab
