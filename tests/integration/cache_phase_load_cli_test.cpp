// SPDX-License-Identifier: MIT
// Phases with workloads of their own, as a user runs them: the real binary and a real
// memcached. A bad key in a phase's workload is bad input naming the phase; `run` and `show`
// say each phase's workload, in text and JSON, and count what the server counted.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "memcached_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;
constexpr auto npos = std::string::npos;

json hot_then_cold(const std::string& server) {
    return {{"name", "hot then cold"},
            {"kind", "cache"},
            {"tick_ms", 200},
            {"phases",
             {{{"ops", 2000}, {"concurrency", 2}},
              {{"ops", 2000}, {"concurrency", 2}, {"keys", {{"count", 10'000'000'000ull}}}}}},
            {"cache",
             {{"servers", {server}},
              {"workload", "cache-aside"},
              {"keys", {{"count", 40}, {"prefix", "hot:"}}},
              {"value_size", {{"min", 16}, {"max", 64}}}}}};
}

TEST(PhaseLoadCli, ABadPhaseWorkloadExits2NamingThePhaseAndKey) {
    json spec = hot_then_cold("127.0.0.1:1");
    spec["phases"][1]["keys"]["cnt"] = 5;
    spec["phases"][0]["workload"] = "get-all";
    TempDir dir;
    dir.write("spec.json", spec.dump());
    const auto r = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store"});
    EXPECT_EQ(r.code, 2) << r.err;
    for (
        const char* says :
        {"phases[1].keys.cnt: unknown key",
         R"(phases[0].workload: "get-all" is not one of "cache-aside", "ratio", "get-only", "set-only")"})
        EXPECT_NE(r.err.find(says), npos) << says << " not in:\n" << r.err;
}

TEST(PhaseLoadCli, RunAndShowSayEachPhasesWorkload) {
    MemcachedServer server;
    TempDir dir;
    dir.write("spec.json", hot_then_cold(server.endpoint()).dump());
    const std::string db = dir.file("runs.db");
    const auto before = cache_counters(server);
    const auto text = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db});
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find(": cache-aside, 40 keys hot:N uniform, values 16..64 B\n"), npos)
        << text.out;
    EXPECT_NE(text.out.find(": cache-aside, 10000000000 keys hot:N uniform, values 16..64 B\n"),
              npos)
        << text.out;
    EXPECT_NE(text.out.find("phase 2: concurrency 2 for 2000 ops; cache-aside, 10000000000 keys"),
              npos)
        << text.out;
    const auto after = cache_counters(server);

    const auto shown = run({PERFLAB_BINARY, "show", "1", "--json", "--db", db});
    ASSERT_EQ(shown.code, 0) << shown.err;
    const json summary = json::parse(shown.out)["summary"];
    ASSERT_EQ(summary["phases"].size(), 2u);
    const json& hot = summary["phases"][0];
    const json& cold = summary["phases"][1];
    EXPECT_EQ(hot["workload"]["keys"]["count"], 40);
    EXPECT_EQ(cold["workload"]["keys"]["count"], 10'000'000'000ull);
    EXPECT_EQ(cold["workload"]["keys"]["prefix"], "hot:");
    EXPECT_EQ(cold["workload"]["workload"], "cache-aside");
    EXPECT_LT(cold["hit_rate"].get<double>(), hot["hit_rate"].get<double>());
    EXPECT_EQ(hot["hits"].get<uint64_t>() + cold["hits"].get<uint64_t>(),
              after.get_hits - before.get_hits);
    EXPECT_EQ(hot["misses"].get<uint64_t>() + cold["misses"].get<uint64_t>(),
              after.get_misses - before.get_misses);

    const auto shown_text = run({PERFLAB_BINARY, "show", "1", "--db", db});
    ASSERT_EQ(shown_text.code, 0) << shown_text.err;
    EXPECT_NE(shown_text.out.find(": cache-aside, 10000000000 keys hot:N uniform"), npos)
        << shown_text.out;
}

}  // namespace
}  // namespace perflab::test
