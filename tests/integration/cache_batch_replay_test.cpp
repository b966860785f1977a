// SPDX-License-Identifier: MIT
// Multi-gets and replays against a real memcached: every key of a batch, every line of a
// replay file, is what the server counted.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memcached_server.h"
#include "process.h"
#include "run_helpers.h"

namespace perflab::test {
namespace {

using nlohmann::json;

uint64_t op_count(const RunSummary& s, const char* op) {
    const auto it = s.overall.totals.ops.find(op);
    return it == s.overall.totals.ops.end() ? 0 : it->second.count;
}

json cache_spec(std::vector<std::string> servers, const std::string& driver,
                const std::string& protocol, json phases) {
    json cache = {{"servers", servers},
                  {"protocol", protocol},
                  {"driver", driver},
                  {"keys", {{"count", 300}, {"prefix", "mg:"}}},
                  {"value_size", {{"min", 16}, {"max", 512}}}};
    if (driver == "async") cache.update({{"threads", 2}, {"pipeline", 4}});
    return {{"name", "batch"},
            {"kind", "cache"},
            {"tick_ms", 250},
            {"phases", std::move(phases)},
            {"cache", cache}};
}

struct Case {
    std::string driver;
    std::string protocol;
};

class Multiget : public ::testing::TestWithParam<Case> {};

// ratio 3:1 on 4 connections of 500 ops each: 375 batches of 10 keys and 125 sets apiece.
TEST_P(Multiget, EachKeyIsAGetTheServerCounted) {
    const auto& c = GetParam();
    MemcachedServer server;
    auto spec = cache_spec({server.endpoint()}, c.driver, c.protocol,
                           {{{"ops", 2000}, {"concurrency", 4}}});
    spec["cache"].update(
        {{"workload", "ratio"}, {"get_ratio", 3}, {"set_ratio", 1}, {"multiget", 10}});
    const auto before = cache_counters(server);
    const auto s = run_json(spec);
    const auto after = cache_counters(server);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    const auto& t = s.overall.totals;
    EXPECT_EQ(t.total_errors(), 0u);
    EXPECT_EQ(op_count(s, "mget"), 1500u);
    EXPECT_EQ(op_count(s, "get"), 0u);
    EXPECT_EQ(op_count(s, "set"), 500u);
    EXPECT_EQ(t.ops.at("mget").latency.count(), 1500u);  // one latency per batch
    EXPECT_EQ(t.hits + t.misses, 15000u);
    EXPECT_EQ(after.cmd_get - before.cmd_get, 15000u);
    EXPECT_EQ(after.get_hits - before.get_hits, t.hits);
    EXPECT_EQ(after.get_misses - before.get_misses, t.misses);
    EXPECT_EQ(after.cmd_set - before.cmd_set, 500u);
    EXPECT_GT(t.hits, 0u);
    EXPECT_GT(t.misses, 0u);
}

INSTANTIATE_TEST_SUITE_P(Drivers, Multiget,
                         ::testing::Values(Case{"async", "text"}, Case{"async", "meta"},
                                           Case{"libmemcached", "text"},
                                           Case{"libmemcached", "binary"}),
                         [](const auto& info) {
                             return info.param.driver + "_" + info.param.protocol;
                         });

// Two servers: a batch's keys go to the server each hashes to, one request on each.
TEST(MultigetTwoServers, KeysSpreadOverTheServers) {
    MemcachedServer a, b;
    auto spec = cache_spec({a.endpoint(), b.endpoint()}, "async", "meta",
                           {{{"ops", 400}, {"concurrency", 2}}});
    spec["cache"].update({{"workload", "get-only"}, {"multiget", 20}});
    const auto a0 = cache_counters(a), b0 = cache_counters(b);
    const auto s = run_json(spec);
    const auto a1 = cache_counters(a), b1 = cache_counters(b);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    EXPECT_EQ(s.overall.totals.total_errors(), 0u);
    EXPECT_EQ(op_count(s, "mget"), 400u);
    EXPECT_EQ(s.overall.totals.misses, 8000u);
    EXPECT_EQ(a1.cmd_get - a0.cmd_get + b1.cmd_get - b0.cmd_get, 8000u);
    EXPECT_GT(a1.cmd_get - a0.cmd_get, 0u);
    EXPECT_GT(b1.cmd_get - b0.cmd_get, 0u);
}

// A recorded file as a test writes it, with its own counts of gets and sets.
struct Recorded {
    std::string path;
    uint64_t gets = 0, sets = 0;
};

Recorded record(const TempDir& dir, size_t lines, bool stamped, double step_s) {
    Recorded r{dir.file("ops.txt")};
    std::ofstream out(r.path);
    for (size_t i = 0; i < lines; ++i) {
        if (stamped) out << std::to_string(1733040000.0 + double(i) * step_s) << ' ';
        const std::string key = "rp:" + std::to_string(i * 7919 % 5000);
        if (i % 5 == 0) {
            out << "set " << key << ' ' << 10 + i % 300 << '\n';
            ++r.sets;
        } else {
            out << "get " << key << '\n';
            ++r.gets;
        }
    }
    return r;
}

class Replay : public ::testing::TestWithParam<std::string> {};

TEST_P(Replay, HundredThousandLinesAreWhatTheServerCounted) {
    TempDir dir;
    const auto file = record(dir, 100'000, false, 0);
    MemcachedServer server;
    auto spec = cache_spec({server.endpoint()}, GetParam(), "text",
                           {{{"duration_s", 100}, {"concurrency", 8}}});
    spec["cache"]["replay"] = {{"file", file.path}, {"speed", "max"}};
    const auto before = cache_counters(server);
    const auto s = run_json(spec);
    const auto after = cache_counters(server);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    const auto& t = s.overall.totals;
    EXPECT_EQ(t.total_errors(), 0u);
    EXPECT_EQ(after.cmd_get - before.cmd_get, file.gets);
    EXPECT_EQ(after.cmd_set - before.cmd_set, file.sets);
    EXPECT_EQ(op_count(s, "get"), file.gets);
    EXPECT_EQ(op_count(s, "set"), file.sets);
    EXPECT_EQ(after.get_hits - before.get_hits, t.hits);
    EXPECT_EQ(t.hits + t.misses, file.gets);
}

INSTANTIATE_TEST_SUITE_P(Drivers, Replay, ::testing::Values("async", "libmemcached"));

// 200 ops recorded over 1.99 s, replayed at speed 2: the last is due 0.995 s after the
// first, and nothing goes before its time; latency counts from that time (service beside it).
TEST(ReplayTimed, SpeedTwoTakesHalfTheRecordedSpan) {
    TempDir dir;
    const auto file = record(dir, 200, true, 0.01);
    MemcachedServer server;
    auto spec = cache_spec({server.endpoint()}, "async", "meta",
                           {{{"duration_s", 30}, {"concurrency", 3}}});
    spec["cache"]["replay"] = {{"file", file.path}, {"speed", 2}};
    const auto before = cache_counters(server);
    const auto s = run_json(spec);
    const auto after = cache_counters(server);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    const auto& t = s.overall.totals;
    EXPECT_EQ(after.cmd_get - before.cmd_get, file.gets);
    EXPECT_EQ(after.cmd_set - before.cmd_set, file.sets);
    const double attack_s = double(t.last_send_us - t.first_send_us) / 1e6;
    // The last op went at its time or after; the first at most as late as the slowest op's
    // latency, which counts from the intended time.
    EXPECT_GE(attack_s, 0.995 - double(t.latency().max()) / 1e6);
    EXPECT_FALSE(t.ops.at("get").service.empty());
    // The phase ended with the file, not at its planned 30 s.
    EXPECT_LT(s.overall.duration_s, 30);
}

}  // namespace
}  // namespace perflab::test
