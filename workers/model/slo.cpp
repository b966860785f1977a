// SPDX-License-Identifier: MIT
#include "slo.h"

#include <nlohmann/json.hpp>
#include <sstream>

#include "format.h"

namespace perflab {

namespace {

enum class Unit { ms, fraction, count };

struct Percentile {
    const char* key;
    double p;  // 100: the maximum
};
constexpr Percentile kPercentiles[] = {{"p50", 50}, {"p90", 90},    {"p95", 95},
                                       {"p99", 99}, {"p999", 99.9}, {"max", 100}};

// Up to two decimals, without trailing zeros: 100, 99.9, 0.25.
std::string compact(double v) {
    std::string s = format_fixed(v, 2);
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
}

Unit unit_of(const std::string& key) {
    if (key == "error_rate" || key == "check_failure_rate" || key.rfind("min_", 0) == 0)
        return Unit::fraction;
    if (key == "max_full_gcs") return Unit::count;
    return Unit::ms;
}

std::string value_text(double v, Unit unit) {
    switch (unit) {
        case Unit::ms:
            return compact(v) + " ms";
        case Unit::fraction:
            return compact(v * 100) + "%";
        case Unit::count:
            return compact(v);
    }
    return {};
}

std::string name_of(const std::string& key, double limit) {
    const Unit unit = unit_of(key);
    const std::string l = value_text(limit, unit);
    if (key == "error_rate") return "error rate ≤ " + l;
    if (key == "check_failure_rate") return "check failures ≤ " + l;
    if (key == "min_success") return "success ≥ " + l;
    if (key == "min_hit_rate") return "hit rate ≥ " + l;
    if (key == "min_throughput_ratio") return "throughput ≥ " + l + " of planned";
    if (key == "max_full_gcs") return "full GCs ≤ " + l;
    return key + " ≤ " + l;
}

void add(std::vector<SloCheck>& out, const std::string& key, const std::string& scope,
         std::optional<double> measured, double limit, bool higher_is_better) {
    SloCheck c;
    c.key = key;
    c.name = name_of(key, limit);
    c.scope = scope;
    c.measured = measured;
    c.limit = limit;
    c.passed = measured && (higher_is_better ? *measured >= limit : *measured <= limit);
    out.push_back(std::move(c));
}

}  // namespace

std::string SloCheck::measured_text() const {
    return measured ? value_text(*measured, unit_of(key)) : "no data";
}

std::string SloCheck::text() const {
    std::string where = scope;
    if (to_ms >= 0)
        where += " " + format_fixed(double(from_ms) / 1000, 1) + "-" +
                 format_fixed(double(to_ms) / 1000, 1) + " s";
    return name + " (" + where + "): " + measured_text() + (passed ? "  pass" : "  FAIL");
}

void check_scope(const SloSpec& slo, RunKind kind, const IntervalSample& t, bool open_model,
                 std::optional<uint64_t> full_gcs, const std::string& scope,
                 std::vector<SloCheck>& out) {
    const uint64_t ops = t.total_ops();
    const uint64_t due = ops + t.dropped;
    const auto none = std::optional<double>();
    if (!slo.latency_ms.empty()) {
        const Histogram h = t.latency();
        for (const auto& [key, p] : kPercentiles) {
            const auto it = slo.latency_ms.find(key);
            if (it == slo.latency_ms.end()) continue;
            const int64_t us = p >= 100 ? h.max() : h.percentile(p);
            // Only answered requests have a latency: none answered is no data, not 0 ms.
            add(out, key, scope, h.count() ? std::optional(double(us) / 1000) : none, it->second,
                false);
        }
    }
    const uint64_t failed = t.total_errors() + t.dropped;
    if (slo.error_rate)
        add(out, "error_rate", scope, due ? std::optional(double(failed) / double(due)) : none,
            *slo.error_rate, false);
    // Over the requests answered: a request never sent or never answered was never checked.
    if (slo.check_failure_rate && kind == RunKind::http) {
        uint64_t answered = 0;
        for (const auto& [code, n] : t.status_codes)
            answered += n;
        add(out, "check_failure_rate", scope,
            answered ? std::optional(double(t.total_check_failures()) / double(answered)) : none,
            *slo.check_failure_rate, false);
    }
    if (slo.min_success)
        add(out, "min_success", scope,
            due ? std::optional(double(due - failed) / double(due)) : none, *slo.min_success, true);
    if (slo.min_hit_rate && kind == RunKind::cache) {
        const uint64_t gets = t.hits + t.misses;
        add(out, "min_hit_rate", scope, gets ? std::optional(t.hit_rate()) : none,
            *slo.min_hit_rate, true);
    }
    // Every op due in an open-model phase was sent or dropped, so sent + dropped is what the
    // schedule asked for over the time the phase really ran.
    if (slo.min_throughput_ratio && open_model) {
        const uint64_t planned = t.sent + t.dropped;
        const uint64_t ok = ops - t.total_errors();
        add(out, "min_throughput_ratio", scope,
            planned ? std::optional(double(ok) / double(planned)) : none, *slo.min_throughput_ratio,
            true);
    }
    if (slo.max_full_gcs)
        add(out, "max_full_gcs", scope, full_gcs ? std::optional(double(*full_gcs)) : none,
            double(*slo.max_full_gcs), false);
}

SloVerdict evaluate_slo(const SloSpec& slo, const RunSpec& spec,
                        const std::vector<IntervalSample>& phase_totals,
                        const IntervalSample& run_totals, const std::vector<uint64_t>& phase_gcs) {
    SloVerdict v;
    IntervalSample open_totals;
    bool any_open = false;
    uint64_t all_gcs = 0;
    for (size_t i = 0; i < phase_totals.size() && i < spec.phases.size(); ++i) {
        const bool open = spec.phases[i].open();
        const std::optional<uint64_t> gcs =
            i < phase_gcs.size() ? std::optional(phase_gcs[i]) : std::nullopt;
        if (gcs) all_gcs += *gcs;
        const size_t before = v.checks.size();
        check_scope(slo, spec.kind, phase_totals[i], open, gcs, "phase " + std::to_string(i + 1),
                    v.checks);
        for (size_t k = before; k < v.checks.size(); ++k)
            v.checks[k].phase = int(i);
        if (open) {
            open_totals.merge(phase_totals[i]);
            any_open = true;
        }
    }
    // The run's throughput ratio is over its open-model phases alone; every other check over
    // all of it.
    std::vector<SloCheck> run_checks;
    check_scope(slo, spec.kind, run_totals, false,
                phase_gcs.empty() ? std::nullopt : std::optional(all_gcs), "run", run_checks);
    if (slo.min_throughput_ratio && any_open) {
        std::vector<SloCheck> ratio;
        SloSpec only = {};
        only.min_throughput_ratio = slo.min_throughput_ratio;
        check_scope(only, spec.kind, open_totals, true, std::nullopt, "run", ratio);
        run_checks.insert(run_checks.end(), ratio.begin(), ratio.end());
    }
    v.checks.insert(v.checks.end(), run_checks.begin(), run_checks.end());
    for (const auto& c : v.checks)
        v.passed = v.passed && c.passed;
    return v;
}

nlohmann::json to_json(const SloVerdict& verdict) {
    nlohmann::json checks = nlohmann::json::array();
    for (const auto& c : verdict.checks) {
        nlohmann::json j = {
            {"key", c.key},     {"name", c.name},
            {"scope", c.scope}, {"measured", c.measured ? nlohmann::json(*c.measured) : nullptr},
            {"limit", c.limit}, {"passed", c.passed}};
        if (c.phase >= 0) j["phase"] = c.phase;
        if (c.to_ms >= 0) {
            j["from_ms"] = c.from_ms;
            j["to_ms"] = c.to_ms;
        }
        checks.push_back(std::move(j));
    }
    return {{"passed", verdict.passed}, {"checks", checks}};
}

std::optional<SloVerdict> slo_verdict_from_json(const nlohmann::json& j) {
    if (!j.is_object() || !j.contains("passed") || !j.contains("checks")) return std::nullopt;
    try {
        SloVerdict v;
        v.passed = j.at("passed").get<bool>();
        for (const auto& c : j.at("checks")) {
            SloCheck check;
            check.key = c.at("key").get<std::string>();
            check.name = c.at("name").get<std::string>();
            check.scope = c.at("scope").get<std::string>();
            if (!c.at("measured").is_null()) check.measured = c.at("measured").get<double>();
            check.limit = c.at("limit").get<double>();
            check.passed = c.at("passed").get<bool>();
            check.phase = c.value("phase", -1);
            check.from_ms = c.value("from_ms", int64_t{-1});
            check.to_ms = c.value("to_ms", int64_t{-1});
            v.checks.push_back(std::move(check));
        }
        return v;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

std::string slo_text(const SloVerdict& verdict) {
    std::ostringstream out;
    out << "SLO " << (verdict.passed ? "PASS" : "FAIL") << "\n";
    for (const bool passing : {true, false})
        for (const auto& c : verdict.checks)
            if (c.passed == passing) out << "  " << c.text() << "\n";
    return out.str();
}

}  // namespace perflab
