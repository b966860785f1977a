// SPDX-License-Identifier: MIT
// The max-rate search through `perflab run` against nginx limited to 400 r/s (a burst of 100
// queued, the excess refused): from 100/s it must find the knee between 320 and 440.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "http_run_helpers.h"
#include "nginx_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

json search_spec(const std::string& url) {
    auto spec = http_spec(url, json::array());
    spec.erase("phases");
    spec["tick_ms"] = 250;
    spec["slo"] = {{"latency_ms", {{"p99", 100}}}, {"error_rate", 0.01}, {"window_s", 2}};
    // The bisection alone: the hold that confirms its answer is SearchCli.TheAnswerHolds'.
    spec["search"] = {{"rate_from", 100}, {"rate_to", 2000},   {"step_s", 3},   {"precision", 0.05},
                      {"warmup_s", 1},    {"concurrency", 64}, {"confirm_s", 0}};
    return spec;
}

TEST(SearchCli, FindsTheRateLimitOfNginx) {
    NginxServer nginx;
    TempDir dir;
    dir.write("spec.json", search_spec(nginx.url("/limited.bin")).dump());
    const std::string db = dir.file("runs.db");
    const auto out = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "--json"}, 300);
    ASSERT_EQ(out.code, 0) << out.err;
    const auto report = json::parse(out.out, nullptr, false);
    ASSERT_TRUE(report.is_object() && report.contains("search")) << out.out;
    const json& search = report["search"];
    ASSERT_TRUE(search["max_rate"].is_number()) << search.dump(2);
    const double max_rate = search["max_rate"].get<double>();
    EXPECT_GE(max_rate, 320) << search.dump(2);
    EXPECT_LE(max_rate, 440) << search.dump(2);
    ASSERT_TRUE(search["first_failing_rate"].is_number());
    const double failing = search["first_failing_rate"].get<double>();
    EXPECT_GT(failing, max_rate);
    EXPECT_LE(failing, max_rate * 1.05 + 1);
    EXPECT_TRUE(search["finished"].get<bool>());
    ASSERT_TRUE(search["failed_check"].is_object()) << search.dump(2);

    // Every step judged from its own figures: one that passed met both checks, and the
    // answer is the fastest of them.
    double fastest_pass = 0;
    int steps_at_failing_rate = 0;
    for (const auto& step : search["steps"]) {
        ASSERT_GT(step["throughput"].get<double>(), 0) << step.dump();
        if (step["passed"].get<bool>()) {
            EXPECT_LE(step["p99_ms"].get<double>(), 100) << step.dump();
            EXPECT_LE(step["error_rate"].get<double>(), 0.01) << step.dump();
            fastest_pass = std::max(fastest_pass, step["rate"].get<double>());
        } else {
            EXPECT_FALSE(step["failed"].empty()) << step.dump();
        }
        if (step["rate"].get<double>() == failing) {
            ++steps_at_failing_rate;
            // One numbering in JSON: the failed check names the step by the same index,
            // and its scope by the same phase counted from 1, as the text's table does.
            EXPECT_EQ(search["failed_check"]["phase"], step["phase"]) << search.dump(2);
            EXPECT_EQ(search["failed_check"]["scope"],
                      "phase " + std::to_string(step["phase"].get<int>() + 1));
            EXPECT_FALSE(step["passed"].get<bool>());
        }
    }
    EXPECT_EQ(fastest_pass, max_rate);
    EXPECT_EQ(steps_at_failing_rate, 1);
    // The rates went up from rate_from, by doubling, until 800/s was refused.
    EXPECT_EQ(search["steps"][0]["rate"], 100);
    EXPECT_EQ(search["steps"][0]["phase"], 1) << "phase 0 is the warm-up";
    EXPECT_NE(out.err.find("Search: max rate"), std::string::npos) << out.err;

    // Stored with the run: show gives the same answer, and its report the step table.
    const auto shown = run({PERFLAB_BINARY, "show", "1", "--db", db, "--json"}, 60);
    ASSERT_EQ(shown.code, 0) << shown.err;
    const auto stored = json::parse(shown.out, nullptr, false);
    ASSERT_TRUE(stored.is_object()) << shown.out;
    EXPECT_EQ(stored["summary"]["search"], search);
    const auto text = run({PERFLAB_BINARY, "show", "1", "--db", db}, 60);
    EXPECT_NE(text.out.find("Search: max rate"), std::string::npos) << text.out;
}

TEST(SearchCli, ASearchWithoutAnSloIsBadInput) {
    TempDir dir;
    auto spec = search_spec("http://127.0.0.1:1/");
    spec.erase("slo");
    dir.write("spec.json", spec.dump());
    const auto out = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store"}, 60);
    EXPECT_EQ(out.code, 2);
    EXPECT_NE(out.err.find("slo: required with \"search\""), std::string::npos) << out.err;
}

}  // namespace
}  // namespace perflab::test
