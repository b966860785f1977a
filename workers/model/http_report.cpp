// SPDX-License-Identifier: MIT
#include "http_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

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

nlohmann::json latency_object(const Histogram& h) {
    return {{"min", h.min()},
            {"mean", std::round(h.mean() * 100) / 100},
            {"p50", h.percentile(50)},
            {"p90", h.percentile(90)},
            {"p95", h.percentile(95)},
            {"p99", h.percentile(99)},
            {"p999", h.percentile(99.9)},
            {"max", h.max()}};
}

}  // namespace

HttpReport http_report(const PhaseTotals& totals) {
    const IntervalSample& t = totals.totals;
    HttpReport r;
    r.requests = t.total_ops();
    if (t.sent > 0) {
        r.attack_s = double(t.last_send_us - t.first_send_us) / 1e6;
        r.wait_s = double(std::max<int64_t>(0, t.last_reply_us - t.last_send_us)) / 1e6;
        r.duration_s = r.attack_s + r.wait_s;
    } else {
        r.duration_s = r.attack_s = totals.duration_s;
    }
    r.latency = t.latency();
    r.bytes_in = t.bytes_in;
    r.bytes_out = t.bytes_out;
    r.status_codes = t.status_codes;
    r.errors = t.errors;
    r.late_sends = t.late;
    r.dropped = t.dropped;
    uint64_t ok = 0;
    for (const auto& [code, n] : t.status_codes)
        if (code >= 200 && code <= 399) ok += n;
    r.success = r.requests ? double(ok) / double(r.requests) : 0;
    r.rate = r.attack_s > 0 ? double(r.requests) / r.attack_s : 0;
    r.throughput = r.duration_s > 0 ? double(ok) / r.duration_s : 0;
    return r;
}

nlohmann::json to_json(const HttpReport& r) {
    nlohmann::json codes = nlohmann::json::object();
    for (const auto& [code, n] : r.status_codes)
        codes[std::to_string(code)] = n;
    nlohmann::json errors = nlohmann::json::object();
    for (const auto& [text, n] : r.errors)
        errors[text] = n;
    return {{"requests", r.requests},
            {"rate", r.rate},
            {"throughput", r.throughput},
            {"duration_s", r.duration_s},
            {"attack_s", r.attack_s},
            {"wait_s", r.wait_s},
            {"latency_us", latency_object(r.latency)},
            {"bytes_in", {{"total", r.bytes_in}, {"mean", r.bytes_in_mean()}}},
            {"bytes_out", {{"total", r.bytes_out}, {"mean", r.bytes_out_mean()}}},
            {"success", r.success},
            {"status_codes", codes},
            {"errors", errors},
            {"late_sends", r.late_sends},
            {"dropped", r.dropped}};
}

nlohmann::json http_report_json(const RunSummary& s) {
    nlohmann::json j = to_json(http_report(s.overall));
    j["status"] = to_string(s.status);
    if (!s.error.empty()) j["error"] = s.error;
    j["phases"] = nlohmann::json::array();
    for (const auto& phase : s.phases) {
        nlohmann::json p = to_json(http_report(phase));
        p["phase"] = phase.phase;
        j["phases"].push_back(std::move(p));
    }
    return j;
}

std::string http_report_text(const HttpReport& r) {
    std::ostringstream out;
    const auto& h = r.latency;
    line(out, "Requests", "[total, rate, throughput]",
         std::to_string(r.requests) + ", " + format_fixed(r.rate, 2) + ", " +
             format_fixed(r.throughput, 2));
    line(out, "Duration", "[total, attack, wait]",
         format_go_duration(r.duration_s) + ", " + format_go_duration(r.attack_s) + ", " +
             format_go_duration(r.wait_s));
    line(out, "Latencies", "[min, mean, 50, 90, 95, 99, max]",
         duration(h.min()) + ", " + duration(int64_t(h.mean())) + ", " +
             duration(h.percentile(50)) + ", " + duration(h.percentile(90)) + ", " +
             duration(h.percentile(95)) + ", " + duration(h.percentile(99)) + ", " +
             duration(h.max()));
    line(out, "Bytes In", "[total, mean]",
         std::to_string(r.bytes_in) + ", " + format_fixed(r.bytes_in_mean(), 2));
    line(out, "Bytes Out", "[total, mean]",
         std::to_string(r.bytes_out) + ", " + format_fixed(r.bytes_out_mean(), 2));
    line(out, "Success", "[ratio]", format_fixed(r.success * 100, 2) + "%");
    std::string codes;
    for (const auto& [code, n] : r.status_codes)
        codes += (codes.empty() ? "" : "  ") + std::to_string(code) + ":" + std::to_string(n);
    line(out, "Status Codes", "[code:count]", codes);
    const double late_share = r.requests ? double(r.late_sends) / double(r.requests) : 0;
    line(out, "Late Sends", "[count, ratio]",
         std::to_string(r.late_sends) + ", " + format_fixed(late_share * 100, 2) + "%");
    if (r.dropped) line(out, "Dropped", "[count]", std::to_string(r.dropped));
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
