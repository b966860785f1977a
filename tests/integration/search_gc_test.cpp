// SPDX-License-Identifier: MIT
// The rate-steps story as a search: a JVM service that full-GCs while it takes more than 500
// requests a second (tests/fixtures/jvm/PerflabGcServer.java), probed with jstat; the search
// with `max_full_gcs: 0` must stop where the full GCs begin.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "http_run_helpers.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

TEST(SearchCli, FullGcsStopTheSearchWhereTheyBegin) {
    TempDir dir;
    const auto javac =
        run({"javac", "-d", dir.path(),
             std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/jvm/PerflabGcServer.java"},
            120);
    ASSERT_EQ(javac.code, 0) << javac.err;
    const uint16_t port = free_port();
    Process jvm({"java", "-Xmx256m", "-XX:+UseG1GC", "-cp", dir.path(), "PerflabGcServer",
                 std::to_string(port), "500"});
    ASSERT_TRUE(wait_for_port(port, 30000)) << "the JVM service did not start";

    auto spec = http_spec("http://127.0.0.1:" + std::to_string(port) + "/", json::array());
    spec.erase("phases");
    spec["tick_ms"] = 500;
    spec["probes"] = {{{"jvm", {{"pid", jvm.pid()}}}}};
    spec["slo"] = {{"max_full_gcs", 0}};
    spec["search"] = {{"rate_from", 100}, {"rate_to", 1600}, {"step_s", 3},
                      {"precision", 0.1}, {"warmup_s", 1},   {"concurrency", 32}};
    dir.write("spec.json", spec.dump());
    const auto out =
        run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store", "--json"}, 300);
    ASSERT_EQ(out.code, 0) << out.err;
    const auto report = json::parse(out.out, nullptr, false);
    ASSERT_TRUE(report.is_object() && report.contains("search")) << out.out;
    const json& search = report["search"];
    ASSERT_TRUE(search["max_rate"].is_number()) << search.dump(2);
    const double max_rate = search["max_rate"].get<double>();
    EXPECT_GE(max_rate, 400) << search.dump(2);
    EXPECT_LE(max_rate, 560) << search.dump(2);
    ASSERT_TRUE(search["failed_check"].is_object()) << search.dump(2);
    EXPECT_EQ(search["failed_check"]["key"], "max_full_gcs");
    // The probe saw every step: none below the limit had a full GC, every one that failed had.
    bool reached_limit = false;
    for (const auto& step : search["steps"]) {
        ASSERT_TRUE(step["full_gcs"].is_number()) << step.dump();
        const auto gcs = step["full_gcs"].get<uint64_t>();
        EXPECT_EQ(step["passed"].get<bool>(), gcs == 0) << step.dump();
        if (step["rate"].get<double>() <= 400) {
            EXPECT_EQ(gcs, 0u) << step.dump();
        }
        if (step["rate"].get<double>() >= 800) {
            EXPECT_GT(gcs, 0u) << step.dump();
            reached_limit = true;
        }
    }
    EXPECT_TRUE(reached_limit) << search.dump(2);
}

}  // namespace
}  // namespace perflab::test
