// SPDX-License-Identifier: MIT
// The rate-steps story as a search: a JVM service that full-GCs while it takes more than 500
// requests a second (tests/fixtures/jvm/PerflabGcServer.java), probed with jstat; the search
// with `max_full_gcs: 0` must stop where the full GCs begin, and its answer must hold.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "http_run_helpers.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

void compile_fixture(const TempDir& dir) {
    const auto javac =
        run({"javac", "-d", dir.path(),
             std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/jvm/PerflabGcServer.java"},
            120);
    ASSERT_EQ(javac.code, 0) << javac.err;
}

// Full collections in a JVM's unified GC log (-Xlog:gc): the truth the probe is held to.
int full_gcs_logged(const std::string& path) {
    std::istringstream log(read_file(path));
    int n = 0;
    for (std::string line; std::getline(log, line);)
        n += line.find("Pause Full") != std::string::npos;
    return n;
}

TEST(SearchCli, FullGcsStopTheSearchWhereTheyBegin) {
    TempDir dir;
    compile_fixture(dir);
    const uint16_t port = free_port();
    Process jvm({"java", "-Xmx256m", "-XX:+UseG1GC", "-cp", dir.path(), "PerflabGcServer",
                 std::to_string(port), "500"});
    ASSERT_TRUE(wait_for_port(port, 30000)) << "the JVM service did not start";

    auto spec = http_spec("http://127.0.0.1:" + std::to_string(port) + "/", json::array());
    spec.erase("phases");
    spec["tick_ms"] = 500;
    spec["probes"] = {{{"jvm", {{"pid", jvm.pid()}}}}};
    spec["slo"] = {{"max_full_gcs", 0}};
    // The hold is SearchCli.TheAnswerHolds's: this one is about the steps.
    spec["search"] = {{"rate_from", 100}, {"rate_to", 1600},   {"step_s", 3},   {"precision", 0.1},
                      {"warmup_s", 1},    {"concurrency", 32}, {"confirm_s", 0}};
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

// The search settles between steps, holds its answer, and the answer is true of a fixed run:
// at max_rate for the hold's length the GC log has no full collection.
TEST(SearchCli, TheAnswerHolds) {
    TempDir dir;
    compile_fixture(dir);
    const std::string gc_log = dir.file("gc.log");
    const uint16_t port = free_port();
    Process jvm({"java", "-Xmx256m", "-XX:+UseG1GC", "-Xlog:gc:file=" + gc_log, "-cp", dir.path(),
                 "PerflabGcServer", std::to_string(port), "500"});
    ASSERT_TRUE(wait_for_port(port, 30000)) << "the JVM service did not start";

    auto spec = http_spec("http://127.0.0.1:" + std::to_string(port) + "/", json::array());
    spec.erase("phases");
    spec["tick_ms"] = 500;
    spec["probes"] = {{{"jvm", {{"pid", jvm.pid()}}}}};
    spec["slo"] = {{"max_full_gcs", 0}};
    // From 120/s no step lands within a few percent of the 500/s limit (480 passes, 510
    // fails), so the hold is judged on a rate the service sustains, not on its jitter.
    const double hold_s = 4;
    spec["search"] = {{"rate_from", 120}, {"rate_to", 1600},    {"step_s", 2},
                      {"precision", 0.1}, {"warmup_s", 1},      {"concurrency", 32},
                      {"settle_s", 5},    {"confirm_s", hold_s}};
    dir.write("search.json", spec.dump());
    const auto out =
        run({PERFLAB_BINARY, "run", dir.file("search.json"), "--no-store", "--json"}, 300);
    ASSERT_EQ(out.code, 0) << out.err;
    const auto report = json::parse(out.out, nullptr, false);
    ASSERT_TRUE(report.is_object() && report.contains("search")) << out.out;
    const json& search = report["search"];
    ASSERT_TRUE(search["max_rate"].is_number()) << search.dump(2);
    const double max_rate = search["max_rate"].get<double>();
    EXPECT_TRUE(search["confirmed"].get<bool>()) << search.dump(2);
    EXPECT_TRUE(search["finished"].get<bool>()) << search.dump(2);
    const json& last = search["steps"].back();
    EXPECT_TRUE(last["confirm"].get<bool>()) << search.dump(2);
    EXPECT_TRUE(last["passed"].get<bool>()) << search.dump(2);
    EXPECT_EQ(last["rate"], max_rate);
    EXPECT_EQ(last["full_gcs"], 0);
    EXPECT_LE(max_rate, 500) << search.dump(2);
    // Every step has its old generation from the probe; none of these fills it.
    for (const auto& step : search["steps"]) {
        EXPECT_TRUE(step["old_gen_start_pct"].is_number()) << step.dump();
        EXPECT_TRUE(step["old_gen_end_pct"].is_number()) << step.dump();
        EXPECT_TRUE(step["old_gen_growth_pct_per_s"].is_number()) << step.dump();
    }
    EXPECT_NE(out.err.find("between steps"), std::string::npos) << out.err;

    // The same rate for the hold's length, as a fixed run: no full GC, by the probe and by
    // the GC log.
    const int logged_before = full_gcs_logged(gc_log);
    spec.erase("search");
    spec["phases"] = {{{"rate", max_rate}, {"duration_s", hold_s}, {"concurrency", 32}}};
    dir.write("fixed.json", spec.dump());
    const auto fixed =
        run({PERFLAB_BINARY, "run", dir.file("fixed.json"), "--no-store", "--json"}, 120);
    EXPECT_EQ(fixed.code, 0) << fixed.err;
    const auto verdict = json::parse(fixed.out, nullptr, false);
    ASSERT_TRUE(verdict.is_object() && verdict.contains("slo")) << fixed.out;
    EXPECT_TRUE(verdict["slo"]["passed"].get<bool>()) << verdict["slo"].dump(2);
    EXPECT_EQ(full_gcs_logged(gc_log), logged_before) << read_file(gc_log);
}

}  // namespace
}  // namespace perflab::test
