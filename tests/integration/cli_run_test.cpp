// SPDX-License-Identifier: MIT
// `perflab run` as a user runs it: the real binary, a real memcached.
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "memcached_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

json spec_for(const MemcachedServer& server, json phases) {
    return {{"name", "cli"},
            {"kind", "cache"},
            {"tick_ms", 200},
            {"phases", std::move(phases)},
            {"cache",
             {{"servers", {server.endpoint()}},
              {"workload", "cache-aside"},
              {"keys", {{"count", 1000}}},
              {"value_size", {{"min", 100}, {"max", 200}}}}}};
}

TEST(CliRun, InvalidSpecExits2NamingTheField) {
    TempDir dir;
    dir.write("bad.json", R"({"kind": "cache", "phases": [{"duration_s": 1, "rate": -5}],
        "cache": {"servers": ["127.0.0.1:1"], "value_size": {"min": 20480, "max": 10240}}})");
    const auto r = run({PERFLAB_BINARY, "run", dir.file("bad.json"), "--no-store"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("phases[0].rate: must be > 0"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("cache.value_size: min 20480 > max 10240"), std::string::npos) << r.err;
}

TEST(CliRun, MissingFileAndBadOptionsExit2) {
    auto r = run({PERFLAB_BINARY, "run", "/nonexistent/spec.json", "--no-store"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("/nonexistent/spec.json"), std::string::npos) << r.err;
    r = run({PERFLAB_BINARY, "run", "--no-such-flag"});
    EXPECT_EQ(r.code, 2);
    TempDir dir;
    dir.write("broken.json", "{\"kind\": \"cache\",");
    r = run({PERFLAB_BINARY, "run", dir.file("broken.json"), "--no-store"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("not valid JSON"), std::string::npos) << r.err;
}

TEST(CliRun, JsonSummaryOnStdoutTicksOnStderr) {
    MemcachedServer server;
    TempDir dir;
    dir.write("spec.json", spec_for(server, {{{"duration_s", 1}, {"concurrency", 2}}}).dump());
    const auto r = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--json", "--no-store"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    for (const char* k :
         {"ops", "hits", "misses", "hit_rate", "bytes_in", "bytes_out", "duration_s", "phases"})
        EXPECT_TRUE(j.contains(k)) << k;
    for (const char* op : {"get", "set"}) {
        const auto& o = j["ops"][op];
        for (const char* k : {"count", "errors", "rate", "latency_us"})
            EXPECT_TRUE(o.contains(k));
        for (const char* k : {"min", "mean", "p50", "p90", "p95", "p99", "p999", "max"})
            EXPECT_TRUE(o["latency_us"].contains(k)) << op << "." << k;
    }
    EXPECT_GT(j["ops"]["get"]["count"].get<uint64_t>(), 0u);
    EXPECT_EQ(j["phases"].size(), 1u);
    EXPECT_NE(r.err.find(" hit:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" p99:"), std::string::npos);
}

TEST(CliRun, InterruptStopsCleanlyAndStillReports) {
    MemcachedServer server;
    TempDir dir;
    dir.write("spec.json", spec_for(server, {{{"duration_s", 60}, {"concurrency", 2}}}).dump());
    // With the store on: its writer thread must not take the signal's default action.
    Process p({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", dir.file("runs.db")},
              dir.file("out"), dir.file("err"));
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    const auto started = std::chrono::steady_clock::now();
    p.signal(SIGINT);
    EXPECT_EQ(p.wait(), 0);
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(10));
    const std::string out = read_file(dir.file("out"));
    EXPECT_NE(out.find("00:00:01 hit:"), std::string::npos) << out;
    EXPECT_NE(out.find("Overall"), std::string::npos) << out;
    EXPECT_NE(out.find("stopped"), std::string::npos) << out;
}

}  // namespace
}  // namespace perflab::test
