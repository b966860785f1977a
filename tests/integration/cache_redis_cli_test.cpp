// SPDX-License-Identifier: MIT
// `perflab run` with "protocol": "redis", as a user runs it: the real binary, a real
// redis-server. Bad "redis" keys are bad input (exit 2, naming the key); a refused login is a
// failed run (exit 1) saying why; `run --json` counts what the server counted.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_run.h"
#include "process.h"
#include "redis_server.h"

namespace perflab::test {
namespace {

using nlohmann::json;
constexpr auto npos = std::string::npos;

json spec_for(const std::string& server, json redis) {
    return {{"name", "redis cli"},
            {"kind", "cache"},
            {"tick_ms", 200},
            {"phases", {{{"ops", 2000}, {"concurrency", 2}}}},
            {"cache",
             {{"servers", {server}},
              {"protocol", "redis"},
              {"workload", "cache-aside"},
              {"keys", {{"count", 500}}},
              {"value_size", {{"min", 100}, {"max", 200}}},
              {"ttl_s", 60},
              {"pipeline", 16},
              {"redis", std::move(redis)}}}};
}

TEST(RedisCli, BadRedisKeysExit2NamingEachKey) {
    json spec = spec_for("127.0.0.1:1", {{"hello", 4}, {"user", "app"}, {"colour", "red"}});
    spec["cache"]["driver"] = "libmemcached";
    const auto r = perflab_run(spec);
    EXPECT_EQ(r.code, 2) << r.err;
    for (const char* says :
         {R"(cache.protocol: "redis" needs "driver": "async")",
          "cache.redis.hello: must be between 2 and 3, got 4", "cache.redis.colour: unknown key",
          R"(cache.redis.password: required with "user" (AUTH sends both))"})
        EXPECT_NE(r.err.find(says), npos) << says << " not in:\n" << r.err;

    unsetenv("PERFLAB_TEST_UNSET");
    const auto unset =
        perflab_run(spec_for("127.0.0.1:1", {{"password", "${PERFLAB_TEST_UNSET}"}}));
    EXPECT_EQ(unset.code, 2) << unset.err;
    EXPECT_NE(unset.err.find("cache.redis.password: environment variable PERFLAB_TEST_UNSET is "
                             "not set"),
              npos)
        << unset.err;
}

TEST(RedisCli, WrongPasswordFailsTheRunSayingSo) {
    RedisServer server({"--requirepass", "right"});
    ScopedEnv env("PERFLAB_TEST_REDIS_PASSWORD", "wrong");
    const auto r =
        perflab_run(spec_for(server.endpoint(), {{"password", "${PERFLAB_TEST_REDIS_PASSWORD}"}}));
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("perflab: run failed: cache.redis: " + server.endpoint() +
                         ": HELLO 3 with AUTH: WRONGPASS"),
              npos)
        << r.err;
    EXPECT_EQ(server.calls("get"), 0u);
}

TEST(RedisCli, JsonSummaryCountsWhatTheServerCounted) {
    RedisServer server({"--requirepass", "right"});
    ScopedEnv env("PERFLAB_TEST_REDIS_PASSWORD", "right");
    const auto r = perflab_run(
        spec_for(server.endpoint(), {{"password", "${PERFLAB_TEST_REDIS_PASSWORD}"}, {"db", 2}}),
        {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["ops"]["get"]["count"].get<uint64_t>(), 2000u);
    EXPECT_EQ(j["ops"]["get"]["count"].get<uint64_t>(), server.calls("get"));
    EXPECT_EQ(j["ops"]["set"]["count"].get<uint64_t>(), server.calls("set"));
    EXPECT_EQ(j["hits"].get<uint64_t>(), server.info_number("stats", "keyspace_hits"));
    EXPECT_EQ(j["misses"].get<uint64_t>(), server.info_number("stats", "keyspace_misses"));
    EXPECT_EQ(j["ops"]["set"]["count"].get<uint64_t>(), j["misses"].get<uint64_t>());
    // The password given is not in what the run printed.
    EXPECT_EQ(r.out.find("right"), npos);
}

// `perflab demo --redis`: a redis-server of PerfLab's own, a cache-aside run against it with
// the server probed, stored in the user's history (here a scratch one) like any run.
TEST(RedisCli, DemoRunsAgainstARedisServerItStarts) {
    TempDir home;
    const auto r = run({"env", "XDG_DATA_HOME=" + home.path(), PERFLAB_BINARY, "demo", "--redis",
                        "--seconds", "2"},
                       120);
    ASSERT_EQ(r.code, 0) << r.err << r.out;
    EXPECT_NE(r.out.find("demo: redis-server started on 127.0.0.1:"), npos) << r.out;
    const std::string db = home.file("perflab/perflab.db");
    const auto shown = run({PERFLAB_BINARY, "show", "1", "--db", db, "--json"});
    ASSERT_EQ(shown.code, 0) << shown.err;
    const json j = json::parse(shown.out);
    EXPECT_EQ(j["spec"]["cache"]["protocol"], "redis");
    EXPECT_GT(j["summary"]["ops"]["get"]["count"].get<uint64_t>(), 0u);
    EXPECT_EQ(j["summary"]["errors"], json::object()) << j["summary"].dump();
    // The probe's samples came from the server the demo ran against.
    const auto probes = run({PERFLAB_BINARY, "export", "1", "--format", "probes-csv", "--db", db});
    ASSERT_EQ(probes.code, 0) << probes.err;
    EXPECT_NE(probes.out.find("keyspace_hits"), npos) << probes.out.substr(0, 2000);
}

// The open model against a server that stops answering for half a second (CLIENT PAUSE):
// the ops due meanwhile wait in the client and count from the times they were due, so the
// run's p99 holds the pause and an SLO of 100 ms fails (exit 3); every planned op is sent or
// dropped, and the server counted every one sent.
TEST(RedisCli, OpenModelCountsAPauseFromTheIntendedTimesAndFailsTheSlo) {
    RedisServer server;
    TempDir dir;
    json spec = spec_for(server.endpoint(), json::object());
    spec["tick_ms"] = 500;
    spec["phases"] = {{{"rate", 1000}, {"duration_s", 4}, {"concurrency", 4}}};
    spec["slo"] = {{"latency_ms", {{"p99", 100}}}};
    // Every op from the plan (cache-aside would add a SET after each miss).
    spec["cache"]["workload"] = "ratio";
    spec["cache"]["get_ratio"] = 9;
    spec["cache"]["set_ratio"] = 1;
    dir.write("spec.json", spec.dump());
    Process run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store", "--json"},
                dir.file("out"), dir.file("err"));
    ASSERT_TRUE(wait_until([&] { return read_file(dir.file("err")).find(" get/s:") != npos; },
                           std::chrono::seconds(30)))
        << read_file(dir.file("err"));
    EXPECT_EQ(server.cli({"CLIENT", "PAUSE", "500", "ALL"}), "OK\n");
    EXPECT_EQ(run.wait(), 3) << read_file(dir.file("err"));
    const json out = json::parse(read_file(dir.file("out")), nullptr, false);
    ASSERT_TRUE(out.is_object()) << read_file(dir.file("out"));
    const uint64_t gets = out["ops"]["get"]["count"].get<uint64_t>();
    const uint64_t sets = out["ops"]["set"]["count"].get<uint64_t>();
    EXPECT_EQ(gets, server.calls("get"));
    EXPECT_EQ(sets, server.calls("set"));
    EXPECT_EQ(out["sent"].get<uint64_t>() + out["dropped"].get<uint64_t>(), 4000u);
    // The ops due in the pause's first 100 ms (2.5% of the run's) each waited over 400 ms.
    EXPECT_GE(out["latency_us"]["p99"].get<double>(), 400'000) << out["latency_us"].dump();
    EXPECT_FALSE(out["slo"]["passed"].get<bool>()) << out["slo"].dump();
}

}  // namespace
}  // namespace perflab::test
