// SPDX-License-Identifier: MIT
#include "cache_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "figures.h"
#include "format.h"
#include "node_report.h"
#include "node_ticks.h"
#include "phase_load_report.h"

namespace perflab {

nlohmann::json cache_phase_json(const PhaseTotals& p) {
    const auto& t = p.totals;
    const bool known = hits_known(t);
    const auto or_null = [known](auto v) { return known ? nlohmann::json(v) : nlohmann::json(); };
    nlohmann::json j = {{"ops", ops_json(p)},
                        {"hits", or_null(t.hits)},
                        {"misses", or_null(t.misses)},
                        {"hit_rate", or_null(t.hit_rate())},
                        {"bytes_in", bytes_json(t.bytes_in, t.bytes_in_known)},
                        {"bytes_out", bytes_json(t.bytes_out, t.bytes_out_known)},
                        {"late", t.late},
                        {"sent", t.sent},
                        {"dropped", t.dropped},
                        {"errors", t.errors}};
    add_figures_json(j, figures(RunKind::cache, p));
    j["redirections"] = {{"moved", t.moved}, {"ask", t.asked}};
    if (!t.nodes.empty()) j["nodes"] = node_ticks_json(t.nodes);
    if (p.phase >= 0) j["phase"] = p.phase;
    return j;
}

nlohmann::json cache_report_json(const RunSummary& s) {
    nlohmann::json j = cache_phase_json(s.overall);
    j["kind"] = to_string(s.kind);
    j["status"] = to_string(s.status);
    if (!s.error.empty()) j["error"] = s.error;
    if (s.seed) j["seed"] = *s.seed;
    j["prefill_sets"] = s.prefill_sets;
    j["phases"] = nlohmann::json::array();
    for (const auto& p : s.phases) {
        nlohmann::json phase = cache_phase_json(p);
        phase["start_ms"] = p.start_ms;
        if (p.phase >= 0 && size_t(p.phase) < s.phase_loads.size())
            phase["workload"] = cache_load_json(s.phase_loads[size_t(p.phase)]);
        j["phases"].push_back(std::move(phase));
    }
    return j;
}

namespace {

// One row of the op table: its name, count, rate and errors, then h's latencies.
void write_row(std::ostream& out, const std::string& name, const OpSample& op, double rate,
               const Histogram& h) {
    char line[256];
    std::snprintf(
        line, sizeof line, "  %-8s %10llu %11s %8llu %8s %8s %8s %8s %8s %8s %8s %8s\n",
        name.c_str(), static_cast<unsigned long long>(op.count), format_fixed(rate, 1).c_str(),
        static_cast<unsigned long long>(op.errors), format_latency_us(h.min()).c_str(),
        format_latency_us(int64_t(h.mean())).c_str(), format_latency_us(h.percentile(50)).c_str(),
        format_latency_us(h.percentile(90)).c_str(), format_latency_us(h.percentile(95)).c_str(),
        format_latency_us(h.percentile(99)).c_str(), format_latency_us(h.percentile(99.9)).c_str(),
        format_latency_us(h.max()).c_str());
    out << line;
}

// `cluster`: a Redis Cluster run, whose redirections are told even when there were none.
void write_totals(std::ostream& out, const PhaseTotals& p, bool cluster) {
    const auto& t = p.totals;
    char line[256];
    std::snprintf(line, sizeof line, "  %-8s %10s %11s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "op",
                  "count", "rate/s", "errors", "min", "mean", "p50", "p90", "p95", "p99", "p99.9",
                  "max");
    out << line;
    bool service = false;
    for (const auto& [name, op] : t.ops) {
        // Both cache ops are always counted; an op the run never sent is no row of the report.
        if (op.count == 0 && op.errors == 0) continue;
        const double rate = p.duration_s > 0 ? double(op.count) / p.duration_s : 0.0;
        write_row(out, name, op, rate, op.latency);
        service = service || !op.service.empty();
    }
    if (service) {
        out << "  service time (from the actual send; the latencies above count from the "
               "intended send):\n";
        for (const auto& [name, op] : t.ops)
            if (!op.service.empty())
                write_row(out, name, op, p.duration_s > 0 ? double(op.count) / p.duration_s : 0.0,
                          op.service);
    }
    const Figures f = figures(RunKind::cache, p);
    out << "  rate " << format_fixed(f.rate, 1) << "/s, throughput "
        << format_fixed(f.throughput, 1) << "/s, success " << format_fixed(f.success * 100, 2)
        << "%\n";
    if (!hits_known(t))
        out << "  hit rate - (hits and misses unknown: not recorded, or no get among the ops)\n";
    else if (t.hits + t.misses > 0)
        out << "  hit rate " << format_fixed(t.hit_rate() * 100, 2) << "% (" << t.hits << " hits, "
            << t.misses << " misses)\n";
    out << "  bytes in " << bytes_text(t.bytes_in, t.bytes_in_known) << ", out "
        << bytes_text(t.bytes_out, t.bytes_out_known) << "\n";
    if (t.late) out << "  late sends " << t.late << "\n";
    if (t.dropped) out << "  dropped " << t.dropped << " (due, never sent)\n";
    if (cluster || t.moved + t.asked)
        out << "  redirections: MOVED " << t.moved << ", ASK " << t.asked
            << " (Redis Cluster; each op counted once)\n";
    for (const auto& [kind, n] : t.errors)
        out << "  error " << kind << ": " << n << "\n";
}

}  // namespace

std::string cache_report_text(const RunSummary& s) {
    std::ostringstream out;
    for (const auto& p : s.phases) {
        out << "Phase " << p.phase + 1 << " (" << format_fixed(p.duration_s, 2) << " s)";
        if (p.phase >= 0 && size_t(p.phase) < s.phase_loads.size())
            out << ": " << cache_load_text(s.phase_loads[size_t(p.phase)]);
        out << "\n";
        write_totals(out, p, s.redis_cluster);
    }
    out << "Overall (" << format_fixed(s.overall.duration_s, 2) << " s, " << to_string(s.status)
        << ")\n";
    write_totals(out, s.overall, s.redis_cluster);
    if (!s.overall.totals.nodes.empty())
        out << "  nodes (what each answered, as its INFO commandstats and keyspace counters "
               "count it):\n"
            << node_table_text(node_table(s.overall.totals.nodes), "    ");
    if (s.prefill_sets) out << "  prefill: " << s.prefill_sets << " keys set before phase 1\n";
    if (!s.error.empty()) out << "  failed: " << s.error << "\n";
    return out.str();
}

}  // namespace perflab
