// SPDX-License-Identifier: MIT
#include "model/http_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "http/http_stats.h"

namespace perflab {
namespace {

// Phase 0 sends from 0 to 0.75 s, its last reply then; phase 1 sends from 1 s to 1.75 s, its
// last reply at 2 s: overall, vegeta's attack is 1.75 s and its wait 0.25 s.
IntervalSample sample_of(int phase) {
    HttpStats s(1);
    for (int i = 0; i < 90; ++i)
        s.response(0, 200, 1000 + i, -1, 6262);
    for (int i = 0; i < 5; ++i)
        s.response(0, 500, 2000, -1, 5);
    for (int i = 0; i < 5; ++i)
        s.failure(0, HttpError::refused);
    s.sent = 100;
    s.late = 3;
    const Clock::time_point origin{};
    const auto at_ms = [&](int ms) { return origin + std::chrono::milliseconds(ms); };
    s.times.sent(at_ms(1000 * phase));
    s.times.sent(at_ms(1000 * phase + 750));
    s.times.replied(at_ms(phase == 0 ? 750 : 2000));
    IntervalSample out;
    s.add_to(out, {"GET http://127.0.0.1/"}, origin);
    out.phase = phase;
    out.interval_ms = 1000;
    out.t_ms = 1000 * (phase + 1);
    return out;
}

RunSummary summary() {
    SummaryBuilder b(RunKind::http);
    b.add(sample_of(0));
    b.add(sample_of(1));
    return b.finish(RunStatus::completed);
}

TEST(HttpStats, MergesIntoSample) {
    const auto s = sample_of(0);
    ASSERT_EQ(s.ops.size(), 1u);
    const auto& op = s.ops.at("GET http://127.0.0.1/");
    EXPECT_EQ(op.count, 100u);
    EXPECT_EQ(op.errors, 10u);
    EXPECT_EQ(s.status_codes.at(200), 90u);
    EXPECT_EQ(s.status_codes.at(500), 5u);
    EXPECT_EQ(s.errors.at("connection refused"), 5u);
    EXPECT_EQ(s.bytes_in, 90u * 6262 + 25);
    EXPECT_EQ(s.late, 3u);
}

TEST(HttpReport, ComputesVegetaFigures) {
    const auto r = http_report(summary().overall);
    EXPECT_EQ(r.requests, 200u);
    EXPECT_DOUBLE_EQ(r.duration_s, 2.0);
    EXPECT_DOUBLE_EQ(r.attack_s, 1.75);
    EXPECT_NEAR(r.rate, 200 / 1.75, 1e-9);
    EXPECT_NEAR(r.throughput, 180 / 2.0, 1e-9);
    EXPECT_NEAR(r.success, 0.9, 1e-12);
    EXPECT_EQ(r.late_sends, 6u);
    // A refused request got no response: it has no latency, the answered ones have theirs.
    EXPECT_EQ(r.latency.count(), 190u);
    EXPECT_EQ(r.latency.min(), 1000);
}

TEST(HttpReport, JsonHasTheDocumentedKeys) {
    const auto j = http_report_json(summary());
    for (const char* key :
         {"requests", "rate", "throughput", "duration_s", "attack_s", "wait_s", "latency_us",
          "bytes_in", "bytes_out", "success", "status_codes", "errors", "late_sends", "phases"})
        EXPECT_TRUE(j.contains(key)) << key;
    for (const char* key : {"min", "mean", "p50", "p90", "p95", "p99", "p999", "max"})
        EXPECT_TRUE(j["latency_us"].contains(key)) << key;
    EXPECT_EQ(j["bytes_in"]["total"], 2 * (90u * 6262 + 25));
    EXPECT_EQ(j["status_codes"]["500"], 10);
    EXPECT_EQ(j["errors"]["connection refused"], 10);
    ASSERT_EQ(j["phases"].size(), 2u);
    EXPECT_EQ(j["phases"][0]["requests"], 100);
    EXPECT_EQ(j["phases"][0]["wait_s"], 0.0);
    EXPECT_EQ(j["phases"][1]["wait_s"], 0.25);
}

TEST(HttpReport, TextFollowsVegeta) {
    const auto text = http_report_text(summary());
    EXPECT_NE(text.find("Requests      [total, rate, throughput]         200, 114.29, 90.00"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("Duration      [total, attack, wait]             2.00s, 1.75s, 250.0ms"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("Latencies     [min, mean, 50, 90, 95, 99, max]  1.0ms"), std::string::npos)
        << text;
    EXPECT_NE(text.find("Success       [ratio]                           90.00%"),
              std::string::npos);
    EXPECT_NE(text.find("Status Codes  [code:count]                      200:180  500:10"),
              std::string::npos);
    EXPECT_NE(text.find("Error Set:\nconnection refused: 10\n"), std::string::npos);
    EXPECT_NE(text.find("Phase 2\n"), std::string::npos);
}

}  // namespace
}  // namespace perflab
