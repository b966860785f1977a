// SPDX-License-Identifier: MIT
#include "http_report.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "figures.h"
#include "format.h"

namespace perflab {

namespace {

std::string duration(int64_t us) {
    return format_go_duration(double(us) / 1e6);
}

// vegeta's columns: a 14-character label, then the 34-character field list.
void line(std::ostream& out, const char* label, const char* fields, const std::string& values) {
    char head[64];
    std::snprintf(head, sizeof head, "%-14s%-34s", label, fields);
    out << head << values << "\n";
}

// "min, mean, 50, 90, 95, 99, max" as Go durations.
std::string latencies(const Histogram& h) {
    return duration(h.min()) + ", " + duration(int64_t(h.mean())) + ", " +
           duration(h.percentile(50)) + ", " + duration(h.percentile(90)) + ", " +
           duration(h.percentile(95)) + ", " + duration(h.percentile(99)) + ", " +
           duration(h.max());
}

// "body_contains:3  status:1"
std::string counts_text(const std::map<std::string, uint64_t>& counts) {
    std::string out;
    for (const auto& [name, n] : counts)
        out += (out.empty() ? "" : "  ") + name + ":" + std::to_string(n);
    return out;
}

}  // namespace

HttpReport http_report(const PhaseTotals& totals) {
    const IntervalSample& t = totals.totals;
    Figures f = figures(RunKind::http, totals);
    HttpReport r;
    r.requests = f.requests;
    r.rate = f.rate;
    r.throughput = f.throughput;
    r.duration_s = f.duration_s;
    r.attack_s = f.attack_s;
    r.wait_s = f.wait_s;
    r.latency = std::move(f.latency);
    r.service = std::move(f.service);
    r.bytes_in = t.bytes_in;
    r.bytes_out = t.bytes_out;
    r.bytes_in_known = t.bytes_in_known;
    r.bytes_out_known = t.bytes_out_known;
    r.success = f.success;
    r.error_rate = f.error_rate;
    r.status_codes = t.status_codes;
    r.errors = t.errors;
    r.late_sends = t.late;
    r.dropped = t.dropped;
    r.check_failures = t.total_check_failures();
    r.checks_failed = t.checks_failed();
    for (const auto& [name, op] : t.ops)
        if (op.check_failures) r.target_checks_failed[name] = op.checks_failed;
    return r;
}

namespace {

// Unknown (the run's source did not count them): null and "-", never 0.
nlohmann::json bytes_total_json(uint64_t total, double mean, bool known) {
    if (!known) return {{"total", nullptr}, {"mean", nullptr}};
    return {{"total", total}, {"mean", mean}};
}

std::string bytes_total_text(uint64_t total, double mean, bool known) {
    return known ? std::to_string(total) + ", " + format_fixed(mean, 2) : "-, -";
}

}  // namespace

nlohmann::json to_json(const HttpReport& r) {
    nlohmann::json codes = nlohmann::json::object();
    for (const auto& [code, n] : r.status_codes)
        codes[std::to_string(code)] = n;
    nlohmann::json errors = nlohmann::json::object();
    for (const auto& [text, n] : r.errors)
        errors[text] = n;
    nlohmann::json j = {
        {"requests", r.requests},
        {"rate", r.rate},
        {"throughput", r.throughput},
        {"duration_s", r.duration_s},
        {"attack_s", r.attack_s},
        {"wait_s", r.wait_s},
        {"latency_us", latency_json(r.latency)},
        {"bytes_in", bytes_total_json(r.bytes_in, r.bytes_in_mean(), r.bytes_in_known)},
        {"bytes_out", bytes_total_json(r.bytes_out, r.bytes_out_mean(), r.bytes_out_known)},
        {"success", r.success},
        {"error_rate", r.error_rate},
        {"status_codes", codes},
        {"errors", errors},
        {"late_sends", r.late_sends},
        {"dropped", r.dropped},
        {"check_failures", r.check_failures},
        {"checks_failed", r.checks_failed}};
    add_service_json(j, r.service);
    return j;
}

namespace {

// ops_json's per target figures and each target's failed checks. A target's rate is over the
// attack, as the phase's is, so the targets' rates sum to it (the phase's span, ops_json's
// divisor, also holds the wait).
nlohmann::json http_ops_json(const PhaseTotals& p) {
    nlohmann::json ops = ops_json(p);
    const double attack_s = figures(RunKind::http, p).attack_s;
    for (const auto& [name, op] : p.totals.ops) {
        ops[name]["rate"] = attack_s > 0 ? double(op.count) / attack_s : 0.0;
        ops[name]["check_failures"] = op.check_failures;
        ops[name]["checks_failed"] = op.checks_failed;
    }
    return ops;
}

}  // namespace

nlohmann::json http_report_json(const RunSummary& s) {
    nlohmann::json j = to_json(http_report(s.overall));
    j["ops"] = http_ops_json(s.overall);
    j["kind"] = to_string(s.kind);
    j["status"] = to_string(s.status);
    if (!s.error.empty()) j["error"] = s.error;
    if (s.seed) j["seed"] = *s.seed;
    j["phases"] = nlohmann::json::array();
    for (const auto& phase : s.phases) {
        nlohmann::json p = to_json(http_report(phase));
        p["ops"] = http_ops_json(phase);
        p["phase"] = phase.phase;
        p["start_ms"] = phase.start_ms;
        j["phases"].push_back(std::move(p));
    }
    return j;
}

std::string http_report_text(const HttpReport& r) {
    std::ostringstream out;
    line(out, "Requests", "[total, rate, throughput]",
         std::to_string(r.requests) + ", " + format_fixed(r.rate, 2) + ", " +
             format_fixed(r.throughput, 2));
    line(out, "Duration", "[total, attack, wait]",
         format_go_duration(r.duration_s) + ", " + format_go_duration(r.attack_s) + ", " +
             format_go_duration(r.wait_s));
    line(out, "Latencies", "[min, mean, 50, 90, 95, 99, max]", latencies(r.latency));
    // Latencies count from each request's intended time; this from when it went out.
    if (!r.service.empty())
        line(out, "Service Time", "[min, mean, 50, 90, 95, 99, max]", latencies(r.service));
    line(out, "Bytes In", "[total, mean]",
         bytes_total_text(r.bytes_in, r.bytes_in_mean(), r.bytes_in_known));
    line(out, "Bytes Out", "[total, mean]",
         bytes_total_text(r.bytes_out, r.bytes_out_mean(), r.bytes_out_known));
    line(out, "Success", "[ratio]", format_fixed(r.success * 100, 2) + "%");
    std::string codes;
    for (const auto& [code, n] : r.status_codes)
        codes += (codes.empty() ? "" : "  ") + std::to_string(code) + ":" + std::to_string(n);
    line(out, "Status Codes", "[code:count]", codes);
    const double late_share = r.requests ? double(r.late_sends) / double(r.requests) : 0;
    line(out, "Late Sends", "[count, ratio]",
         std::to_string(r.late_sends) + ", " + format_fixed(late_share * 100, 2) + "%");
    if (r.dropped) line(out, "Dropped", "[count]", std::to_string(r.dropped));
    if (r.check_failures) {
        line(out, "Checks Failed", "[requests, check:count]",
             std::to_string(r.check_failures) + ", " + counts_text(r.checks_failed));
        for (const auto& [target, checks] : r.target_checks_failed)
            out << "  " << target << "  " << counts_text(checks) << "\n";
    }
    out << "Error Set:\n";
    for (const auto& [text, n] : r.errors)
        out << text << ": " << n << "\n";
    return out.str();
}

std::string http_report_text(const RunSummary& s) {
    std::ostringstream out;
    if (s.phases.size() > 1)
        for (const auto& phase : s.phases)
            out << "Phase " << phase.phase + 1 << "\n"
                << http_report_text(http_report(phase)) << "\n";
    out << "Overall (" << to_string(s.status) << ")\n" << http_report_text(http_report(s.overall));
    if (!s.error.empty()) out << "failed: " << s.error << "\n";
    return out.str();
}

}  // namespace perflab
