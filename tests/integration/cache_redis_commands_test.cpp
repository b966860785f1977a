// SPDX-License-Identifier: MIT
// cache.commands against a real redis-server: each command is an op of its own whose count is
// what the server counted of that command (INFO commandstats), over RESP2 and RESP3, with and
// without pipelining; error replies count as errors of their op by kind, as the server's own
// error counts say; only a GET has hits and misses.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "model/cache_report.h"
#include "redis_server.h"
#include "run_helpers.h"

namespace perflab::test {
namespace {

using nlohmann::json;

json commands_spec(const RedisServer& server, json commands, uint64_t ops, int pipeline,
                   int hello = 3, uint64_t keys = 500) {
    return {{"name", "redis commands"},
            {"kind", "cache"},
            {"tick_ms", 250},
            {"phases", {{{"ops", ops}, {"concurrency", 4}}}},
            {"cache",
             {{"servers", {server.endpoint()}},
              {"protocol", "redis"},
              {"commands", std::move(commands)},
              {"keys", {{"count", keys}, {"prefix", "rc:"}}},
              {"value_size", {{"min", 8}, {"max", 300}}},
              {"threads", 2},
              {"pipeline", pipeline},
              {"redis", {{"hello", hello}}}}}};
}

const OpSample& op(const RunSummary& s, const std::string& name) {
    const auto it = s.overall.totals.ops.find(name);
    if (it == s.overall.totals.ops.end()) throw std::runtime_error("no op " + name);
    return it->second;
}

uint64_t error_kind(const RunSummary& s, const std::string& kind) {
    const auto it = s.overall.totals.errors.find(kind);
    return it == s.overall.totals.errors.end() ? 0 : it->second;
}

// The count in one line of INFO errorstats ("errorstat_ERR" → "count=3"); 0 when absent.
uint64_t error_stat(const RedisServer& server, const std::string& kind) {
    const auto all = server.info("errorstats");
    const auto it = all.find("errorstat_" + kind);
    return it == all.end() ? 0 : std::stoull(it->second.substr(it->second.find('=') + 1));
}

// The sum of a sorted set's scores, as redis-cli prints ZRANGE ... WITHSCORES (member, score).
double score_sum(const RedisServer& server, const std::string& key) {
    std::istringstream lines(server.cli({"ZRANGE", key, "0", "-1", "WITHSCORES"}));
    double sum = 0;
    std::string member, score;
    while (std::getline(lines, member) && std::getline(lines, score))
        sum += std::stod(score);
    return sum;
}

struct Case {
    int hello;
    int pipeline;
};

class RedisCommandCounts : public ::testing::TestWithParam<Case> {};

TEST_P(RedisCommandCounts, EachCommandsCountIsTheServersCallsOfIt) {
    const auto& c = GetParam();
    RedisServer server;
    const json commands = {
        {{"cmd", "HSET {{key}} f {{value}}"}, {"weight", 3}},
        {{"cmd", "ZINCRBY board 1 \"member {{uniform 1 1000}}\""}, {"weight", 1}},
        {{"cmd", "INCRBY c:{{zipf 50 1.1}} {{uniform -5 5}}"}, {"weight", 2}, {"name", "counter"}}};
    const uint64_t hset = server.calls("hset"), zincrby = server.calls("zincrby"),
                   incrby = server.calls("incrby");
    const auto s = run_json(commands_spec(server, commands, 4000, c.pipeline, c.hello));
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    const auto& t = s.overall.totals;
    EXPECT_EQ(t.total_errors(), 0u) << cache_report_json(s).dump();
    EXPECT_EQ(op(s, "hset").count, server.calls("hset") - hset);
    EXPECT_EQ(op(s, "zincrby").count, server.calls("zincrby") - zincrby);
    EXPECT_EQ(op(s, "counter").count, server.calls("incrby") - incrby);
    EXPECT_GT(op(s, "hset").count, 0u);
    EXPECT_GT(op(s, "zincrby").count, 0u);
    EXPECT_GT(op(s, "counter").count, 0u);
    // The run's ops are its commands' alone.
    EXPECT_EQ(t.ops.size(), 3u);
    EXPECT_EQ(t.total_ops(), 4000u);
    EXPECT_EQ(t.sent, t.total_ops());
    // Each ZINCRBY added 1 to one member of the board: its words reached the server whole.
    EXPECT_EQ(score_sum(server, "board"), double(op(s, "zincrby").count));
    // No GET among them: hits and misses are unknown, not 0.
    const json report = cache_report_json(s);
    EXPECT_TRUE(report["hits"].is_null()) << report.dump();
    EXPECT_TRUE(report["hit_rate"].is_null()) << report.dump();
}

INSTANTIATE_TEST_SUITE_P(Protocols, RedisCommandCounts,
                         ::testing::Values(Case{2, 1}, Case{2, 16}, Case{3, 1}, Case{3, 16}),
                         [](const auto& info) {
                             return "resp" + std::to_string(info.param.hello) + "_pipeline" +
                                    std::to_string(info.param.pipeline);
                         });

// A command the server does not know: each op of it is an error of kind ERR, as the server's
// errorstats count them; the other command is untouched.
TEST(RedisCommands, UnknownCommandIsAnErrOfItsOp) {
    RedisServer server;
    const json commands = {{{"cmd", "FOO {{key}}"}, {"weight", 1}},
                           {{"cmd", "HSET {{key}} f {{value}}"}, {"weight", 1}}};
    const uint64_t errs = error_stat(server, "ERR"), hset = server.calls("hset");
    const auto s = run_json(commands_spec(server, commands, 1000, 8));
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    const uint64_t server_errs = error_stat(server, "ERR") - errs;
    EXPECT_GT(server_errs, 0u);
    EXPECT_EQ(op(s, "foo").count, server_errs);
    EXPECT_EQ(op(s, "foo").errors, server_errs);
    EXPECT_EQ(error_kind(s, "ERR"), server_errs);
    EXPECT_EQ(s.overall.totals.total_errors(), server_errs);
    EXPECT_EQ(op(s, "hset").errors, 0u);
    EXPECT_EQ(op(s, "hset").count, server.calls("hset") - hset);
    // An error reply is a response: its op has a latency.
    EXPECT_EQ(op(s, "foo").latency.count(), server_errs);
}

// LPUSH on keys SET made strings: -WRONGTYPE, counted under its kind as the server counted
// LPUSH's failed calls.
TEST(RedisCommands, WrongTypeIsCountedUnderItsKind) {
    RedisServer server;
    const json commands = {{{"cmd", "SET {{key}} {{value}}"}, {"weight", 1}},
                           {{"cmd", "LPUSH {{key}} x"}, {"weight", 1}}};
    for (int hello : {2, 3}) {
        server.cli({"FLUSHALL"});
        const uint64_t failed = command_stat(server, "lpush", "failed_calls");
        const uint64_t lpush = server.calls("lpush"), set = server.calls("set");
        const auto s = run_json(commands_spec(server, commands, 2000, 4, hello, 20));
        ASSERT_EQ(s.status, RunStatus::completed) << s.error;
        const uint64_t wrongtype = command_stat(server, "lpush", "failed_calls") - failed;
        EXPECT_GT(wrongtype, 0u);
        EXPECT_EQ(error_kind(s, "WRONGTYPE"), wrongtype);
        EXPECT_EQ(op(s, "lpush").errors, wrongtype);
        EXPECT_EQ(op(s, "lpush").count, server.calls("lpush") - lpush);
        EXPECT_EQ(op(s, "set").count, server.calls("set") - set);
        EXPECT_EQ(op(s, "set").errors, 0u);
        EXPECT_EQ(s.overall.totals.errors.size(), 1u);
    }
}

// A GET among the commands: its bulk strings are hits, its nils misses, as Redis counts them.
TEST(RedisCommands, AGetsHitsAndMissesAreTheServers) {
    RedisServer server;
    const json commands = {{{"cmd", "GET {{key}}"}, {"weight", 2}},
                           {{"cmd", "SET {{key}} {{value}}"}, {"weight", 1}, {"name", "store"}}};
    const uint64_t hits = server.info_number("stats", "keyspace_hits"),
                   misses = server.info_number("stats", "keyspace_misses");
    const auto s = run_json(commands_spec(server, commands, 3000, 8));
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    const auto& t = s.overall.totals;
    EXPECT_EQ(t.total_errors(), 0u);
    EXPECT_EQ(t.hits, server.info_number("stats", "keyspace_hits") - hits);
    EXPECT_EQ(t.misses, server.info_number("stats", "keyspace_misses") - misses);
    EXPECT_EQ(t.hits + t.misses, op(s, "get").count);
    EXPECT_GT(t.hits, 0u);
    EXPECT_EQ(op(s, "store").count, server.calls("set"));
}

}  // namespace
}  // namespace perflab::test
