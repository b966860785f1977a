// SPDX-License-Identifier: MIT
// "protocol": "redis" on the async driver against a real redis-server: every count PerfLab
// reports must equal what the server counted (INFO commandstats, keyspace_hits/misses), over
// RESP2 and RESP3, with and without pipelining; the login (HELLO, AUTH, SELECT) is no op, and
// a refused one fails the run with the reason.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "process.h"
#include "redis_server.h"
#include "run_helpers.h"

namespace perflab::test {
namespace {

using nlohmann::json;

json redis_spec(const RedisServer& server, const std::string& workload, int pipeline, json phases,
                json redis = json::object()) {
    return {{"name", "redis"},
            {"kind", "cache"},
            {"tick_ms", 250},
            {"phases", std::move(phases)},
            {"cache",
             {{"servers", {server.endpoint()}},
              {"protocol", "redis"},
              {"workload", workload},
              {"get_ratio", 3},
              {"set_ratio", 1},
              {"keys", {{"count", 2000}, {"prefix", "rd:"}}},
              {"value_size", {{"min", 16}, {"max", 4096}}},
              {"ttl_s", 300},
              {"threads", 2},
              {"pipeline", pipeline},
              {"redis", std::move(redis)}}}};
}

uint64_t op_count(const RunSummary& s, const char* op) {
    const auto it = s.overall.totals.ops.find(op);
    return it == s.overall.totals.ops.end() ? 0 : it->second.count;
}

// What the server counted, read before and after a run.
struct ServerCounts {
    uint64_t get, set, mget, hello, hits, misses;
};

ServerCounts counts(const RedisServer& server) {
    return {server.calls("get"),
            server.calls("set"),
            server.calls("mget"),
            server.calls("hello"),
            server.info_number("stats", "keyspace_hits"),
            server.info_number("stats", "keyspace_misses")};
}

// A field of a database's line in INFO keyspace ("db3" → "keys=12,expires=12,avg_ttl=0"); 0
// when the database holds no key.
uint64_t keyspace_field(const RedisServer& server, const std::string& db,
                        const std::string& field) {
    const auto all = server.info("keyspace");
    const auto it = all.find(db);
    if (it == all.end()) return 0;
    const auto at = it->second.find(field + "=");
    if (at == std::string::npos) throw std::runtime_error("no " + field + " in " + it->second);
    return std::stoull(it->second.substr(at + field.size() + 1));
}

struct Case {
    std::string workload;
    int hello;
    int pipeline;
};

class RedisExactCounts : public ::testing::TestWithParam<Case> {};

TEST_P(RedisExactCounts, EqualTheServersCommandstatsAndKeyspaceDeltas) {
    const auto& c = GetParam();
    RedisServer server;
    const auto before = counts(server);
    const auto s =
        run_json(redis_spec(server, c.workload, c.pipeline, {{{"ops", 6000}, {"concurrency", 5}}},
                            {{"hello", c.hello}}));
    const auto after = counts(server);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    const auto& t = s.overall.totals;
    EXPECT_EQ(t.total_errors(), 0u);
    EXPECT_EQ(op_count(s, "get"), after.get - before.get);
    EXPECT_EQ(op_count(s, "set"), after.set - before.set);
    EXPECT_EQ(t.hits, after.hits - before.hits);
    EXPECT_EQ(t.misses, after.misses - before.misses);
    EXPECT_EQ(t.sent, t.total_ops());
    // RESP3 is asked for once per connection, and is no op of the run; RESP2 asks nothing.
    EXPECT_EQ(after.hello - before.hello, c.hello == 3 ? 5u : 0u);
    if (c.workload == "cache-aside") {
        EXPECT_EQ(op_count(s, "get"), 6000u);
        EXPECT_EQ(op_count(s, "set"), t.misses);
        EXPECT_GT(t.hits, 0u);
    } else if (c.workload == "ratio") {
        EXPECT_EQ(op_count(s, "get"), 4500u);
        EXPECT_EQ(op_count(s, "set"), 1500u);
    } else if (c.workload == "get-only") {
        EXPECT_EQ(op_count(s, "get"), 6000u);
        EXPECT_EQ(t.hits, 0u);
    } else {
        EXPECT_EQ(op_count(s, "set"), 6000u);
        EXPECT_GT(t.bytes_out, 6000u * 16);
        // Each key was set with its TTL.
        EXPECT_GT(keyspace_field(server, "db0", "keys"), 0u);
        EXPECT_EQ(keyspace_field(server, "db0", "expires"), keyspace_field(server, "db0", "keys"));
    }
}

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (const char* w : {"cache-aside", "ratio", "get-only", "set-only"})
        for (int hello : {2, 3})
            for (int pipeline : {1, 16})
                cases.push_back({w, hello, pipeline});
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Workloads, RedisExactCounts, ::testing::ValuesIn(all_cases()),
                         [](const auto& info) {
                             std::string name = info.param.workload + "_resp" +
                                                std::to_string(info.param.hello) + "_pipeline" +
                                                std::to_string(info.param.pipeline);
                             for (auto& ch : name)
                                 if (ch == '-') ch = '_';
                             return name;
                         });

// Batches of 10 keys: one MGET each, whose values are hits and nils misses, as Redis counts
// them key by key.
TEST(RedisCache, MultiGetCountsEachKeyAsTheServerDoes) {
    RedisServer server;
    for (int hello : {2, 3}) {
        auto spec = redis_spec(server, "ratio", 4, {{{"ops", 3200}, {"concurrency", 4}}},
                               {{"hello", hello}});
        spec["cache"]["multiget"] = 10;
        const auto before = counts(server);
        const auto s = run_json(spec);
        const auto after = counts(server);
        ASSERT_EQ(s.status, RunStatus::completed) << s.error;
        const auto& t = s.overall.totals;
        EXPECT_EQ(t.total_errors(), 0u);
        EXPECT_EQ(op_count(s, "mget"), 2400u);
        EXPECT_EQ(op_count(s, "mget"), after.mget - before.mget);
        EXPECT_EQ(op_count(s, "set"), after.set - before.set);
        EXPECT_EQ(after.get, before.get);
        EXPECT_EQ(t.hits, after.hits - before.hits);
        EXPECT_EQ(t.misses, after.misses - before.misses);
        EXPECT_EQ(t.hits + t.misses, 10u * 2400u);
        EXPECT_GT(t.hits, 0u);
    }
}

// A prefilled key space: every get of the run hits, and the prefill's sets are the server's.
TEST(RedisCache, PrefilledKeySpaceHitsEveryTime) {
    RedisServer server;
    auto spec = redis_spec(server, "get-only", 8, {{{"ops", 4000}, {"concurrency", 4}}});
    spec["cache"]["prefill"] = true;
    const auto before = counts(server);
    const auto s = run_json(spec);
    const auto after = counts(server);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    EXPECT_EQ(s.prefill_sets, 2000u);
    EXPECT_EQ(after.set - before.set, 2000u);
    EXPECT_EQ(s.overall.totals.hits, 4000u);
    EXPECT_EQ(after.hits - before.hits, 4000u);
    EXPECT_EQ(server.cli({"DBSIZE"}), "2000\n");
}

// Closed and open phases: each phase's ops are its plan, and the server counted every one.
TEST(RedisCache, TimedPhasesAndOpenModelCountExactly) {
    RedisServer server;
    const auto before = counts(server);
    const auto s = run_json(redis_spec(server, "ratio", 2,
                                       {{{"duration_s", 0.5}, {"concurrency", 3}},
                                        {{"duration_s", 1}, {"rate", 2000}, {"concurrency", 4}},
                                        {{"ops", 400}, {"concurrency", 7}}}));
    const auto after = counts(server);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    ASSERT_EQ(s.phases.size(), 3u);
    EXPECT_EQ(s.phases[1].totals.total_ops() + s.phases[1].totals.dropped, 2000u);
    EXPECT_EQ(s.phases[2].totals.total_ops(), 400u);
    EXPECT_EQ(op_count(s, "get"), after.get - before.get);
    EXPECT_EQ(op_count(s, "set"), after.set - before.set);
    EXPECT_EQ(s.overall.totals.total_errors(), 0u);
}

// The password from an environment variable, against --requirepass: over HELLO 3's AUTH and
// over RESP2's AUTH command, with the default user named or not.
TEST(RedisCache, AuthWithThePasswordFromTheEnvironment) {
    RedisServer server({"--requirepass", "s3cret pass"});
    ScopedEnv env("PERFLAB_TEST_REDIS_PASSWORD", "s3cret pass");
    const json logins[] = {
        {{"password", "${PERFLAB_TEST_REDIS_PASSWORD}"}},
        {{"hello", 2}, {"password", "${PERFLAB_TEST_REDIS_PASSWORD}"}},
        {{"hello", 3}, {"user", "default"}, {"password", "${PERFLAB_TEST_REDIS_PASSWORD}"}}};
    for (const auto& login : logins) {
        const auto before = counts(server);
        const auto s =
            run_json(redis_spec(server, "ratio", 4, {{{"ops", 1000}, {"concurrency", 2}}}, login));
        const auto after = counts(server);
        ASSERT_EQ(s.status, RunStatus::completed) << login.dump() << ": " << s.error;
        EXPECT_EQ(s.overall.totals.total_errors(), 0u) << login.dump();
        EXPECT_EQ(op_count(s, "get"), after.get - before.get);
        EXPECT_EQ(op_count(s, "set"), after.set - before.set);
        // HELLO 3 carries the password; RESP2 sends AUTH (which the test's redis-cli sends too).
        EXPECT_EQ(after.hello - before.hello, login.value("hello", 3) == 3 ? 2u : 0u);
    }
}

// A wrong password, and none where one is required: the run fails before its first op, saying
// why, and the server saw no get or set.
TEST(RedisCache, RefusedLoginFailsTheRunWithTheServersReason) {
    RedisServer server({"--requirepass", "right"});
    ScopedEnv env("PERFLAB_TEST_REDIS_PASSWORD", "wrong");
    const struct {
        json login;
        std::string says;
    } cases[] = {{{{"password", "${PERFLAB_TEST_REDIS_PASSWORD}"}}, "WRONGPASS"},
                 {{{"hello", 2}, {"password", "${PERFLAB_TEST_REDIS_PASSWORD}"}}, "WRONGPASS"},
                 {json::object(), "cache.redis.password"},
                 {{{"hello", 2}}, "cache.redis.password"}};
    for (const auto& c : cases) {
        const auto s = run_json(
            redis_spec(server, "ratio", 4, {{{"ops", 1000}, {"concurrency", 2}}}, c.login));
        EXPECT_EQ(s.status, RunStatus::failed) << c.login.dump();
        EXPECT_NE(s.error.find("cache.redis: " + server.endpoint()), std::string::npos) << s.error;
        EXPECT_NE(s.error.find(c.says), std::string::npos) << s.error;
    }
    EXPECT_EQ(server.calls("get"), 0u);
    EXPECT_EQ(server.calls("set"), 0u);
}

// A field of a command's line in INFO commandstats ("failed_calls" of "get").
uint64_t command_field(const RedisServer& server, const std::string& command,
                       const std::string& field) {
    const auto all = server.info("commandstats");
    const auto it = all.find("cmdstat_" + command);
    if (it == all.end()) return 0;
    const auto at = it->second.find(field + "=");
    if (at == std::string::npos) throw std::runtime_error("no " + field + " in " + it->second);
    return std::stoull(it->second.substr(at + field.size() + 1));
}

// GETs of keys that hold lists: each reply is -WRONGTYPE, an error of the op counted under its
// kind, the connection kept; Redis counts them as its get's failed calls.
TEST(RedisCache, ErrorRepliesAreCountedByKind) {
    RedisServer server;
    for (int k = 0; k < 10; k += 2)
        server.cli({"RPUSH", "wt:" + std::to_string(k), "x"});
    for (int hello : {2, 3}) {
        auto spec = redis_spec(server, "get-only", 8, {{{"ops", 1000}, {"concurrency", 2}}},
                               {{"hello", hello}});
        spec["cache"]["keys"] = {{"count", 10}, {"prefix", "wt:"}};
        const uint64_t failed_before = command_field(server, "get", "failed_calls");
        const auto before = counts(server);
        const auto s = run_json(spec);
        const auto after = counts(server);
        ASSERT_EQ(s.status, RunStatus::completed) << s.error;
        const auto& t = s.overall.totals;
        const uint64_t failed = command_field(server, "get", "failed_calls") - failed_before;
        EXPECT_GT(failed, 0u);
        ASSERT_EQ(t.errors.count("WRONGTYPE"), 1u);
        EXPECT_EQ(t.errors.at("WRONGTYPE"), failed);
        EXPECT_EQ(t.total_errors(), failed);
        EXPECT_EQ(t.errors.size(), 1u);
        EXPECT_EQ(op_count(s, "get"), 1000u);
        EXPECT_EQ(op_count(s, "get"), after.get - before.get);
        // A list found is a keyspace hit to Redis, and a WRONGTYPE to the get.
        EXPECT_EQ(t.hits, 0u);
        EXPECT_EQ(after.hits - before.hits, failed);
        EXPECT_EQ(t.misses, after.misses - before.misses);
    }
}

// How many error replies of a kind ("ERR") the server sent: INFO errorstats.
uint64_t error_replies(const RedisServer& server, const std::string& kind) {
    const auto all = server.info("errorstats");
    const auto it = all.find("errorstat_" + kind);
    return it == all.end() ? 0 : std::stoull(it->second.substr(it->second.find('=') + 1));
}

// A batch's MGET answered with an error reply is counted under the reply's kind, as a single
// key's GET is (here MGET is renamed away: -ERR unknown command); its keys are neither hits
// nor misses, to PerfLab as to Redis.
TEST(RedisCache, MultiGetErrorRepliesAreCountedByKindAsGetsAre) {
    RedisServer server({"--rename-command", "MGET", ""});
    auto spec = redis_spec(server, "get-only", 4, {{{"ops", 400}, {"concurrency", 2}}});
    spec["cache"]["multiget"] = 10;
    const uint64_t refused_before = error_replies(server, "ERR");
    const auto before = counts(server);
    const auto s = run_json(spec);
    const auto after = counts(server);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    const uint64_t refused = error_replies(server, "ERR") - refused_before;
    const auto& t = s.overall.totals;
    EXPECT_GT(refused, 0u);
    EXPECT_EQ(t.errors, (std::map<std::string, uint64_t>{{"ERR", refused}}));
    EXPECT_EQ(t.total_errors(), refused);
    EXPECT_EQ(op_count(s, "mget"), refused);
    EXPECT_EQ(t.hits + t.misses, 0u);
    EXPECT_EQ(after.hits + after.misses, before.hits + before.misses);
}

// A server without HELLO (as before Redis 6; here renamed away): with no "hello" asked for,
// the run speaks RESP2 (and AUTHs with the password); "hello": 3 is refused, saying what to do.
TEST(RedisCache, AServerWithoutHelloIsSpokenToInResp2) {
    RedisServer server({"--rename-command", "HELLO", "", "--requirepass", "pw"});
    ScopedEnv env("PERFLAB_TEST_REDIS_PASSWORD", "pw");
    const json password = {{"password", "${PERFLAB_TEST_REDIS_PASSWORD}"}};
    const auto before = counts(server);
    const auto s = run_json(
        redis_spec(server, "cache-aside", 4, {{{"ops", 1000}, {"concurrency", 2}}}, password));
    const auto after = counts(server);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    EXPECT_EQ(s.overall.totals.total_errors(), 0u);
    EXPECT_EQ(op_count(s, "get"), after.get - before.get);
    EXPECT_EQ(op_count(s, "set"), after.set - before.set);
    EXPECT_EQ(s.overall.totals.misses, after.misses - before.misses);

    json resp3 = password;
    resp3["hello"] = 3;
    const auto refused = run_json(
        redis_spec(server, "cache-aside", 4, {{{"ops", 1000}, {"concurrency", 2}}}, resp3));
    EXPECT_EQ(refused.status, RunStatus::failed);
    EXPECT_NE(refused.error.find("HELLO 3: ERR unknown command"), std::string::npos)
        << refused.error;
    EXPECT_NE(refused.error.find(R"("hello": 2 speaks RESP2)"), std::string::npos) << refused.error;
}

// A replay file's every line is one command the server counted; its gets' hits and misses are
// the server's.
TEST(RedisCache, ReplayFileLinesAreWhatTheServerCounted) {
    TempDir dir;
    uint64_t gets = 0, sets = 0;
    {
        std::ofstream out(dir.file("ops.txt"));
        for (int i = 0; i < 20'000; ++i) {
            const std::string key = "rp:" + std::to_string(i * 7919 % 3000);
            if (i % 4 == 0) {
                out << "set " << key << ' ' << 10 + i % 500 << '\n';
                ++sets;
            } else {
                out << "get " << key << '\n';
                ++gets;
            }
        }
    }
    RedisServer server;
    auto spec = redis_spec(server, "ratio", 8, {{{"duration_s", 100}, {"concurrency", 4}}});
    spec["cache"]["replay"] = {{"file", dir.file("ops.txt")}, {"speed", "max"}};
    const auto before = counts(server);
    const auto s = run_json(spec);
    const auto after = counts(server);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    const auto& t = s.overall.totals;
    EXPECT_EQ(t.total_errors(), 0u);
    EXPECT_EQ(after.get - before.get, gets);
    EXPECT_EQ(after.set - before.set, sets);
    EXPECT_EQ(op_count(s, "get"), gets);
    EXPECT_EQ(op_count(s, "set"), sets);
    EXPECT_EQ(t.hits, after.hits - before.hits);
    EXPECT_EQ(t.misses, after.misses - before.misses);
    EXPECT_EQ(t.hits + t.misses, gets);
}

// "db": 3 lands every key in database 3.
TEST(RedisCache, SelectPutsTheKeysInItsDatabase) {
    RedisServer server;
    for (int hello : {2, 3}) {
        server.cli({"FLUSHALL"});
        const auto s =
            run_json(redis_spec(server, "set-only", 4, {{{"ops", 500}, {"concurrency", 2}}},
                                {{"hello", hello}, {"db", 3}}));
        ASSERT_EQ(s.status, RunStatus::completed) << s.error;
        EXPECT_EQ(op_count(s, "set"), 500u);
        EXPECT_EQ(keyspace_field(server, "db0", "keys"), 0u);
        const uint64_t keys = keyspace_field(server, "db3", "keys");
        EXPECT_GT(keys, 0u);
        EXPECT_EQ(server.cli({"-n", "3", "DBSIZE"}), std::to_string(keys) + "\n");
    }
}

}  // namespace
}  // namespace perflab::test
