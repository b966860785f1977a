// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/cache_report.h"
#include "model/summary_report.h"

namespace perflab {
namespace {

IntervalSample tick(int phase, int64_t t_ms, uint64_t gets, uint64_t hits, int64_t latency_us) {
    IntervalSample s;
    s.phase = phase;
    s.t_ms = t_ms;
    s.interval_ms = 1000;
    auto& get = s.ops["get"];
    get.count = gets;
    for (uint64_t i = 0; i < gets; ++i)
        get.latency.record(latency_us);
    s.hits = hits;
    s.misses = gets - hits;
    s.bytes_in = hits * 100;
    return s;
}

TEST(Summary, SplitsPhasesAndTotals) {
    SummaryBuilder b(RunKind::cache);
    b.add(tick(0, 1000, 100, 90, 50));
    b.add(tick(0, 2000, 100, 100, 50));
    b.add(tick(1, 3000, 300, 150, 500));
    const RunSummary s = b.finish(RunStatus::completed);
    ASSERT_EQ(s.phases.size(), 2u);
    EXPECT_EQ(s.phases[0].totals.ops.at("get").count, 200u);
    EXPECT_DOUBLE_EQ(s.phases[0].duration_s, 2.0);
    EXPECT_EQ(s.overall.totals.ops.at("get").count, 500u);
    EXPECT_DOUBLE_EQ(s.overall.duration_s, 3.0);

    const nlohmann::json j = cache_report_json(s);
    EXPECT_EQ(j["ops"]["get"]["count"], 500);
    EXPECT_DOUBLE_EQ(j["ops"]["get"]["rate"].get<double>(), 500.0 / 3);
    EXPECT_EQ(j["ops"]["get"]["latency_us"]["p50"], 500);
    EXPECT_EQ(j["ops"]["get"]["latency_us"]["min"], 50);
    EXPECT_EQ(j["hits"], 340);
    EXPECT_EQ(j["misses"], 160);
    EXPECT_DOUBLE_EQ(j["hit_rate"].get<double>(), 0.68);
    EXPECT_EQ(j["bytes_in"], 34000);
    EXPECT_EQ(j["duration_s"], 3.0);
    EXPECT_EQ(j["status"], "completed");
    ASSERT_EQ(j["phases"].size(), 2u);
    EXPECT_EQ(j["phases"][1]["ops"]["get"]["count"], 300);
    for (const char* k : {"min", "mean", "p50", "p90", "p95", "p99", "p999", "max"})
        EXPECT_TRUE(j["ops"]["get"]["latency_us"].contains(k)) << k;
}

TEST(Summary, TextReportHasEveryPhaseAndOverall) {
    SummaryBuilder b(RunKind::cache);
    b.add(tick(0, 1000, 10, 5, 80));
    b.add(tick(1, 2000, 10, 10, 80));
    const std::string text = summary_text(b.finish(RunStatus::stopped));
    EXPECT_NE(text.find("Phase 1"), std::string::npos);
    EXPECT_NE(text.find("Phase 2"), std::string::npos);
    EXPECT_NE(text.find("Overall"), std::string::npos);
    EXPECT_NE(text.find("stopped"), std::string::npos);
    EXPECT_NE(text.find("hit rate 75.00%"), std::string::npos);
}

TEST(Summary, SetOnlyReportHasNoGetRowNorHitRate) {
    IntervalSample sets = tick(0, 1000, 0, 0, 50);  // "get" present with 0, as engines count it
    sets.ops["set"].count = 200;
    sets.ops["set"].latency.record_n(70, 200);
    SummaryBuilder b(RunKind::cache);
    b.add(sets);
    const RunSummary summary = b.finish(RunStatus::completed);
    const std::string text = summary_text(summary);
    EXPECT_NE(text.find("\n  set "), std::string::npos) << text;
    EXPECT_EQ(text.find("\n  get "), std::string::npos) << text;
    EXPECT_EQ(text.find("hit rate"), std::string::npos) << text;
    EXPECT_EQ(cache_report_json(summary)["ops"]["get"]["count"], 0);  // the JSON keeps every op
}

}  // namespace
}  // namespace perflab
