// SPDX-License-Identifier: MIT
// SLO verdicts through `perflab run` against nginx limited to 400 r/s (a burst of 100
// queued, the excess refused): a rate it takes passes, one it refuses exits 3 naming the
// failing check, a check with no data fails, and abort stops the run within a window.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "http_run_helpers.h"
#include "http_test_server.h"
#include "memcached_server.h"
#include "nginx_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

const json kSlo = {{"latency_ms", {{"p99", 100}}}, {"error_rate", 0.01}, {"window_s", 2}};

Output run_spec(const TempDir& dir, const json& spec) {
    dir.write("spec.json", spec.dump());
    return run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store", "--json"}, 120);
}

json slo_of(const Output& out) {
    const auto report = json::parse(out.out, nullptr, false);
    return report.is_object() && report.contains("slo") ? report["slo"] : json();
}

TEST(SloCli, ARateTheServerTakesPassesAndExits0) {
    NginxServer nginx;
    TempDir dir;
    auto spec = http_spec(nginx.url("/limited.bin"), {{{"rate", 300}, {"duration_s", 3}}});
    spec["slo"] = kSlo;
    const auto out = run_spec(dir, spec);
    EXPECT_EQ(out.code, 0) << out.err;
    const auto slo = slo_of(out);
    ASSERT_TRUE(slo.is_object()) << out.out;
    EXPECT_TRUE(slo["passed"].get<bool>());
    // Per phase and for the run: two checks each.
    EXPECT_EQ(slo["checks"].size(), 4u);
    EXPECT_NE(out.err.find("SLO PASS"), std::string::npos) << out.err;
}

TEST(SloCli, ARateTheServerRefusesExits3NamingTheCheck) {
    NginxServer nginx;
    TempDir dir;
    auto spec = http_spec(nginx.url("/limited.bin"), {{{"rate", 800}, {"duration_s", 3}}});
    spec["slo"] = kSlo;
    const auto out = run_spec(dir, spec);
    EXPECT_EQ(out.code, 3) << out.err;
    const auto slo = slo_of(out);
    ASSERT_TRUE(slo.is_object()) << out.out;
    EXPECT_FALSE(slo["passed"].get<bool>());
    bool error_rate_failed = false;
    for (const auto& c : slo["checks"])
        if (c["key"] == "error_rate" && c["scope"] == "run") {
            error_rate_failed = !c["passed"].get<bool>();
            EXPECT_GT(c["measured"].get<double>(), 0.2);  // about half the requests refused
        }
    EXPECT_TRUE(error_rate_failed) << slo.dump(2);
    // The failing checks are printed last, by name.
    const auto fail = out.err.rfind("error rate ≤ 1% (run)");
    ASSERT_NE(fail, std::string::npos) << out.err;
    EXPECT_NE(out.err.find("FAIL", fail), std::string::npos);
    EXPECT_EQ(out.err.find("  pass", fail), std::string::npos)
        << "a passing check after a failing one";
}

// A set-only cache run has no gets, so its hit rate has no data: the check fails rather than
// passes (k6 #4283: a threshold that "passed" with no samples).
TEST(SloCli, ACheckWithNoDataFails) {
    MemcachedServer memcached;
    TempDir dir;
    const json spec = {{"name", "no gets"},
                       {"kind", "cache"},
                       {"phases", {{{"ops", 200}, {"concurrency", 2}}}},
                       {"cache", {{"servers", {memcached.endpoint()}}, {"workload", "set-only"}}},
                       {"slo", {{"min_hit_rate", 0.9}, {"error_rate", 0.01}}}};
    const auto out = run_spec(dir, spec);
    EXPECT_EQ(out.code, 3) << out.err;
    const auto slo = slo_of(out);
    ASSERT_TRUE(slo.is_object()) << out.out << out.err;
    int no_data = 0;
    for (const auto& c : slo["checks"]) {
        if (c["key"] == "min_hit_rate") {
            EXPECT_TRUE(c["measured"].is_null());
            EXPECT_FALSE(c["passed"].get<bool>());
            ++no_data;
        } else {
            EXPECT_TRUE(c["passed"].get<bool>()) << c.dump();  // the sets themselves went fine
        }
    }
    EXPECT_EQ(no_data, 2);  // the phase and the run
    EXPECT_NE(out.err.find("hit rate ≥ 90% (run): no data  FAIL"), std::string::npos) << out.err;
}

TEST(SloCli, AbortStopsTheRunWithinAWindowOfTheBreach) {
    NginxServer nginx;
    TempDir dir;
    auto spec = http_spec(nginx.url("/limited.bin"), {{{"rate", 800}, {"duration_s", 30}}});
    spec["slo"] = kSlo;
    spec["slo"]["abort"] = true;
    const auto out = run_spec(dir, spec);
    EXPECT_EQ(out.code, 3) << out.err;
    const auto report = json::parse(out.out, nullptr, false);
    ASSERT_TRUE(report.is_object()) << out.out;
    EXPECT_EQ(report["status"], "stopped");
    EXPECT_LT(report["duration_s"].get<double>(), 30.0);  // the phase was cut short
    EXPECT_NE(out.err.find("stopping the run: slo.abort is set"), std::string::npos) << out.err;
}

// A burst of 500s long enough to fail a 2-s window but too short to fail the run's totals:
// the window stopped the run, so the run fails with that window's check (from the issue: an
// aborted run that exited 0 with PASS).
TEST(SloCli, ARunAbortStoppedFailsWithTheWindowCheckThatStoppedIt) {
    HttpTestServer server;
    TempDir dir;
    auto spec = http_spec(server.url("/"), {{{"rate", 500}, {"duration_s", 60}}});
    spec["slo"] = {{"error_rate", 0.1}, {"window_s", 2}, {"abort", true}};
    dir.write("spec.json", spec.dump());
    Process run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store", "--json"},
                dir.file("out"), dir.file("err"));
    ASSERT_TRUE(wait_until([&] { return server.requests() >= 4000; }, std::chrono::seconds(60)));
    server.set_mode(HttpTestServer::Mode::error_500);
    ASSERT_TRUE(wait_until([&] { return server.requests() >= 4150; }, std::chrono::seconds(60)));
    server.set_mode(HttpTestServer::Mode::ok);
    EXPECT_EQ(run.wait(), 3);
    const std::string out = read_file(dir.file("out")), err = read_file(dir.file("err"));
    const auto report = json::parse(out, nullptr, false);
    ASSERT_TRUE(report.is_object()) << out << err;
    EXPECT_EQ(report["status"], "stopped");
    const auto& slo = report["slo"];
    EXPECT_FALSE(slo["passed"].get<bool>()) << slo.dump(2);
    int window = 0;
    for (const auto& c : slo["checks"]) {
        if (c["scope"] != "window") {
            // The totals alone would pass: what failed is the window that stopped the run.
            EXPECT_TRUE(c["passed"].get<bool>()) << c.dump();
            continue;
        }
        ++window;
        EXPECT_EQ(c["key"], "error_rate");
        EXPECT_FALSE(c["passed"].get<bool>());
        EXPECT_GT(c["measured"].get<double>(), 0.1);
        EXPECT_EQ(c["to_ms"].get<int64_t>() - c["from_ms"].get<int64_t>(), 2000);
    }
    EXPECT_EQ(window, 1) << slo.dump(2);
    EXPECT_NE(err.find("error rate ≤ 10% (window "), std::string::npos) << err;
}

}  // namespace
}  // namespace perflab::test
