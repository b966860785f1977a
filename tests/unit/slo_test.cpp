// SPDX-License-Identifier: MIT
#include "model/slo.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace perflab {
namespace {

// 100 gets: 90 at 1 ms, 9 at 50 ms, 1 at 900 ms; `errors` of them failed; hits of the rest.
IntervalSample figures(uint64_t errors, uint64_t hits, uint64_t dropped = 0) {
    IntervalSample s;
    auto& get = s.ops["get"];
    get.count = 100;
    get.errors = errors;
    for (int i = 0; i < 90; ++i)
        get.latency.record(1'000);
    for (int i = 0; i < 9; ++i)
        get.latency.record(50'000);
    get.latency.record(900'000);
    s.hits = hits;
    s.misses = 100 - errors - hits;
    s.sent = 100;
    s.dropped = dropped;
    return s;
}

RunSpec spec_with(const nlohmann::json& slo, bool open = true) {
    nlohmann::json phase = open ? nlohmann::json{{"duration_s", 1}, {"rate", 100}}
                                : nlohmann::json{{"duration_s", 1}, {"concurrency", 2}};
    const auto r = parse_spec({{"kind", "cache"},
                               {"phases", {phase}},
                               {"cache", {{"servers", {"127.0.0.1:11211"}}}},
                               {"slo", slo}});
    EXPECT_TRUE(r) << r.error_text();
    return *r.spec;
}

const SloCheck* find(const SloVerdict& v, const std::string& key, const std::string& scope) {
    for (const auto& c : v.checks)
        if (c.key == key && c.scope == scope) return &c;
    return nullptr;
}

TEST(Slo, LatencyFromTheMergedHistogram) {
    const auto spec = spec_with({{"latency_ms", {{"p90", 2}, {"p99", 40}, {"max", 1000}}}});
    const auto t = figures(0, 50);
    const auto v = evaluate_slo(*spec.slo, spec, {t}, t, {});
    // 90 values at 1 ms: p90 is 1 ms; the 99th value is 50 ms; the max is 900 ms.
    ASSERT_NE(find(v, "p90", "run"), nullptr);
    EXPECT_TRUE(find(v, "p90", "run")->passed);
    EXPECT_NEAR(*find(v, "p90", "run")->measured, 1.0, 0.001);
    EXPECT_FALSE(find(v, "p99", "phase 1")->passed);
    EXPECT_NEAR(*find(v, "p99", "phase 1")->measured, 50.0, 0.05);
    EXPECT_TRUE(find(v, "max", "run")->passed);
    EXPECT_FALSE(v.passed);
    EXPECT_EQ(find(v, "p99", "run")->name, "p99 ≤ 40 ms");
}

TEST(Slo, ErrorsAndDroppedOpsCountAgainstTheRates) {
    const auto spec = spec_with({{"error_rate", 0.05}, {"min_success", 0.95}});
    // 3 failed of 100 sent, and 3 due that were never sent: 6 of 103 due.
    const auto t = figures(3, 50, 3);
    const auto v = evaluate_slo(*spec.slo, spec, {t}, t, {});
    EXPECT_NEAR(*find(v, "error_rate", "run")->measured, 6.0 / 103, 1e-12);
    EXPECT_FALSE(find(v, "error_rate", "run")->passed);
    EXPECT_NEAR(*find(v, "min_success", "run")->measured, 97.0 / 103, 1e-12);
    EXPECT_FALSE(find(v, "min_success", "run")->passed);
}

TEST(Slo, ThroughputRatioIsOkOverWhatTheScheduleAskedFor) {
    const auto spec = spec_with({{"min_throughput_ratio", 0.98}});
    const auto t = figures(1, 50, 2);  // 99 ok of 102 due
    const auto v = evaluate_slo(*spec.slo, spec, {t}, t, {});
    EXPECT_NEAR(*find(v, "min_throughput_ratio", "run")->measured, 99.0 / 102, 1e-12);
    EXPECT_FALSE(v.passed);
}

TEST(Slo, ACheckWithNoDataFails) {
    const auto spec = spec_with({{"latency_ms", {{"p99", 100}}}, {"min_hit_rate", 0.5}});
    IntervalSample empty;
    auto v = evaluate_slo(*spec.slo, spec, {empty}, empty, {});
    ASSERT_EQ(v.checks.size(), 4u);
    for (const auto& c : v.checks) {
        EXPECT_FALSE(c.measured.has_value()) << c.text();
        EXPECT_FALSE(c.passed) << c.text();
    }
    // Hits, but no gets answered as hit or miss: no hit rate either.
    auto sets_only = figures(0, 0);
    sets_only.misses = 0;
    v = evaluate_slo(*spec.slo, spec, {sets_only}, sets_only, {});
    EXPECT_FALSE(find(v, "min_hit_rate", "run")->measured.has_value());
    EXPECT_EQ(find(v, "min_hit_rate", "run")->text(), "hit rate ≥ 50% (run): no data  FAIL");
}

TEST(Slo, FullGcsPerPhaseAndNoneWithoutAJvmSample) {
    auto r = parse_spec(
        {{"kind", "cache"},
         {"phases", {{{"duration_s", 1}, {"rate", 10}}, {{"duration_s", 1}, {"rate", 20}}}},
         {"cache", {{"servers", {"127.0.0.1:11211"}}}},
         {"probes", {{{"jvm", {{"pid", 1}}}}}},
         {"slo", {{"max_full_gcs", 0}}}});
    ASSERT_TRUE(r) << r.error_text();
    const auto t = figures(0, 0);
    auto v = evaluate_slo(*r.spec->slo, *r.spec, {t, t}, t, {0, 2});
    EXPECT_TRUE(find(v, "max_full_gcs", "phase 1")->passed);
    EXPECT_FALSE(find(v, "max_full_gcs", "phase 2")->passed);
    EXPECT_EQ(*find(v, "max_full_gcs", "run")->measured, 2.0);
    v = evaluate_slo(*r.spec->slo, *r.spec, {t, t}, t, {});
    EXPECT_FALSE(find(v, "max_full_gcs", "run")->measured.has_value());
}

TEST(Slo, VerdictRoundTripsThroughJson) {
    const auto spec = spec_with({{"latency_ms", {{"p50", 5}}}, {"error_rate", 0.01}});
    const auto t = figures(0, 10);
    const auto v = evaluate_slo(*spec.slo, spec, {t}, t, {});
    const auto back = slo_verdict_from_json(to_json(v));
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(to_json(*back), to_json(v));
}

TEST(SloSpec, ChecksThatCouldNeverHaveDataAreRefused) {
    auto r = parse_spec({{"kind", "http"},
                         {"phases", {{{"duration_s", 1}, {"concurrency", 2}}}},
                         {"http", {{"targets", {{{"url", "http://127.0.0.1:1/"}}}}}},
                         {"slo",
                          {{"min_hit_rate", 0.9},
                           {"min_throughput_ratio", 0.9},
                           {"max_full_gcs", 0},
                           {"error_rate", 2},
                           {"latency_ms", {{"p98", 5}}}}}});
    ASSERT_FALSE(r);
    const std::string text = r.error_text();
    for (const char* field : {"slo.min_hit_rate", "slo.min_throughput_ratio", "slo.max_full_gcs",
                              "slo.error_rate", "slo.latency_ms.p98"})
        EXPECT_NE(text.find(field), std::string::npos) << field << " in\n" << text;
}

TEST(Slo, CheckFailureRateIsOverTheRequestsAnswered) {
    const auto r = parse_spec({{"kind", "http"},
                               {"phases", {{{"duration_s", 1}, {"rate", 100}}}},
                               {"http", {{"targets", {{{"url", "http://127.0.0.1/"}}}}}},
                               {"slo", {{"check_failure_rate", 0.05}}}});
    ASSERT_TRUE(r) << r.error_text();
    // 100 completed: 4 timed out (no response), 96 answered 200, of which 6 failed a check.
    // Dropped requests and those never answered were never checked.
    auto t = figures(10, 0, 20);
    t.ops["get"].check_failures = 6;
    t.status_codes[200] = 96;
    t.errors["timeout"] = 4;
    const auto v = evaluate_slo(*r.spec->slo, *r.spec, {t}, t, {});
    const SloCheck* c = find(v, "check_failure_rate", "run");
    ASSERT_NE(c, nullptr);
    EXPECT_NEAR(*c->measured, 6.0 / 96, 1e-9);
    EXPECT_FALSE(c->passed);
    EXPECT_EQ(c->text().rfind("check failures ≤ 5% (run): 6.2", 0), 0u) << c->text();
}

}  // namespace
}  // namespace perflab
