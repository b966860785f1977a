// SPDX-License-Identifier: MIT
#include "figures.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "format.h"

namespace perflab {

namespace {

// Totals without send times (nothing sent) fall back to their span.
void http_times(const PhaseTotals& p, Figures& f) {
    const IntervalSample& t = p.totals;
    if (t.sent == 0) {
        f.duration_s = f.attack_s = p.duration_s;
        return;
    }
    f.attack_s = double(t.last_send_us - t.first_send_us) / 1e6;
    f.wait_s = double(std::max<int64_t>(0, t.last_reply_us - t.last_send_us)) / 1e6;
    f.duration_s = f.attack_s + f.wait_s;
}

}  // namespace

Figures figures(RunKind kind, const PhaseTotals& p) {
    const IntervalSample& t = p.totals;
    Figures f;
    f.requests = t.total_ops();
    f.errors = t.total_errors();
    f.latency = t.latency();
    f.service = t.service();
    if (kind == RunKind::http) {
        http_times(p, f);
    } else {
        f.duration_s = f.attack_s = p.duration_s;
        if (t.hits + t.misses > 0) f.hit_rate = t.hit_rate();
    }
    const double n = double(f.requests);
    f.dropped = t.dropped;
    const double due = n + double(f.dropped);
    f.success = due > 0 ? double(f.successes()) / due : 0;
    f.error_rate = due > 0 ? double(f.errors + f.dropped) / due : 0;
    f.rate = f.attack_s > 0 ? n / f.attack_s : 0;
    f.throughput = f.duration_s > 0 ? double(f.successes()) / f.duration_s : 0;
    return f;
}

std::string bytes_text(uint64_t bytes, bool known) {
    return known ? format_bytes(bytes) : "-";
}

nlohmann::json bytes_json(uint64_t bytes, bool known) {
    return known ? nlohmann::json(bytes) : nlohmann::json();
}

bool hits_known(const IntervalSample& t) {
    if (t.hits + t.misses > 0) return true;
    uint64_t answered = 0, others = 0;
    bool gets = false;
    for (const auto& [name, op] : t.ops) {
        const bool get = name == "get" || name == "mget";
        gets = gets || get;
        (get ? answered : others) += op.count - op.errors;
    }
    // A run of cache.commands with no GET among them: its ops tell neither.
    return gets ? answered == 0 : others == 0;
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

void add_service_json(nlohmann::json& j, const Histogram& service) {
    if (!service.empty()) j["service_us"] = latency_json(service);
}

nlohmann::json ops_json(const PhaseTotals& p) {
    nlohmann::json ops = nlohmann::json::object();
    for (const auto& [name, op] : p.totals.ops) {
        ops[name] = {{"count", op.count},
                     {"errors", op.errors},
                     {"rate", p.duration_s > 0 ? double(op.count) / p.duration_s : 0.0},
                     {"latency_us", latency_json(op.latency)}};
        add_service_json(ops[name], op.service);
    }
    return ops;
}

void add_figures_json(nlohmann::json& j, const Figures& f) {
    j["requests"] = f.requests;
    j["rate"] = f.rate;
    j["throughput"] = f.throughput;
    j["success"] = f.success;
    j["error_rate"] = f.error_rate;
    j["duration_s"] = f.duration_s;
    j["latency_us"] = latency_json(f.latency);
    add_service_json(j, f.service);
}

}  // namespace perflab
