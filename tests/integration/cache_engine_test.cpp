// SPDX-License-Identifier: MIT
// The libmemcached driver against a real memcached: every count PerfLab reports must equal
// what the server counted.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <set>
#include <thread>

#include "memcached_server.h"
#include "run_helpers.h"

namespace perflab::test {
namespace {

using nlohmann::json;

json cache_spec(const MemcachedServer& server, const std::string& workload,
                const std::string& protocol, json phases) {
    return {{"name", "it"},
            {"kind", "cache"},
            {"tick_ms", 250},
            {"phases", std::move(phases)},
            {"cache",
             {{"servers", {server.endpoint()}},
              {"protocol", protocol},
              {"workload", workload},
              {"get_ratio", 3},
              {"set_ratio", 1},
              {"keys", {{"count", 2000}, {"prefix", "it:"}}},
              {"value_size", {{"min", 16}, {"max", 2048}}},
              {"driver", "libmemcached"}}}};
}

uint64_t op_count(const RunSummary& s, const char* op) {
    const auto it = s.overall.totals.ops.find(op);
    return it == s.overall.totals.ops.end() ? 0 : it->second.count;
}

struct Case {
    std::string workload;
    std::string protocol;
};

class ExactCounts : public ::testing::TestWithParam<Case> {};

TEST_P(ExactCounts, EqualTheServersStatsDeltas) {
    MemcachedServer server;
    const auto before = cache_counters(server);
    const auto summary = run_json(cache_spec(server, GetParam().workload, GetParam().protocol,
                                             {{{"ops", 6000}, {"concurrency", 3}}}));
    const auto after = cache_counters(server);
    ASSERT_EQ(summary.status, RunStatus::completed) << summary.error;
    const auto& t = summary.overall.totals;
    EXPECT_EQ(t.total_errors(), 0u);
    EXPECT_EQ(op_count(summary, "get"), after.cmd_get - before.cmd_get);
    EXPECT_EQ(op_count(summary, "set"), after.cmd_set - before.cmd_set);
    EXPECT_EQ(t.hits, after.get_hits - before.get_hits);
    EXPECT_EQ(t.misses, after.get_misses - before.get_misses);
    const auto& w = GetParam().workload;
    if (w == "cache-aside") {
        EXPECT_EQ(op_count(summary, "get"), 6000u);
        EXPECT_EQ(op_count(summary, "set"), t.misses);  // every miss is filled
    } else if (w == "ratio") {
        EXPECT_EQ(op_count(summary, "get") + op_count(summary, "set"), 6000u);
        EXPECT_EQ(op_count(summary, "get"), 4500u);  // 3:1, interleaved per connection
    } else if (w == "get-only") {
        EXPECT_EQ(op_count(summary, "get"), 6000u);
        EXPECT_EQ(t.hits, 0u);  // nothing was ever set
    } else {
        EXPECT_EQ(op_count(summary, "set"), 6000u);
        EXPECT_GT(t.bytes_out, 6000u * 16);
    }
}

INSTANTIATE_TEST_SUITE_P(Workloads, ExactCounts,
                         ::testing::Values(Case{"cache-aside", "text"}, Case{"ratio", "text"},
                                           Case{"get-only", "text"}, Case{"set-only", "text"},
                                           Case{"cache-aside", "binary"}, Case{"ratio", "binary"},
                                           Case{"get-only", "binary"}, Case{"set-only", "binary"}),
                         [](const auto& info) {
                             std::string name = info.param.workload + "_" + info.param.protocol;
                             for (auto& c : name)
                                 if (c == '-') c = '_';
                             return name;
                         });

// The keys a set-only run leaves on a fresh server, as the server lists them.
std::set<std::string> keys_stored(const std::string& driver, std::optional<uint64_t> seed) {
    MemcachedServer server;
    json spec = {{"name", "seed"},
                 {"kind", "cache"},
                 {"phases", {{{"ops", 400}, {"concurrency", 4}}}},
                 {"cache",
                  {{"servers", {server.endpoint()}},
                   {"workload", "set-only"},
                   {"keys", {{"count", 1'000'000'000}, {"prefix", "seed:"}}},
                   {"value_size", {{"min", 16}, {"max", 64}}},
                   {"driver", driver},
                   {"threads", 2}}}};
    if (seed) spec["seed"] = *seed;
    const auto s = run_json(spec);
    EXPECT_EQ(s.status, RunStatus::completed) << s.error;
    EXPECT_EQ(op_count(s, "set"), 400u);
    return server.keys();
}

size_t common(const std::set<std::string>& a, const std::set<std::string>& b) {
    size_t n = 0;
    for (const auto& k : a)
        n += b.count(k);
    return n;
}

class Seed : public ::testing::TestWithParam<std::string> {};

// Without a seed each run draws its own keys (the same keys every run made a get-only run
// after a set-only one hit 100%); with the same seed, a run draws exactly the same keys.
TEST_P(Seed, SameSeedSameKeysOtherwiseDifferent) {
    const auto first = keys_stored(GetParam(), std::nullopt);
    const auto second = keys_stored(GetParam(), std::nullopt);
    ASSERT_GT(first.size(), 390u);  // 400 draws from 1e9 keys: hardly a repeat
    ASSERT_GT(second.size(), 390u);
    EXPECT_LT(common(first, second), 4u);
    const auto seeded = keys_stored(GetParam(), 20240611);
    const auto again = keys_stored(GetParam(), 20240611);
    ASSERT_GT(seeded.size(), 390u);
    EXPECT_EQ(seeded, again);
    EXPECT_LT(common(seeded, first), 4u);
    EXPECT_LT(common(keys_stored(GetParam(), 20240612), seeded), 4u);
}

INSTANTIATE_TEST_SUITE_P(Drivers, Seed, ::testing::Values("libmemcached", "async"));

TEST(CacheAside, PrefilledKeySpaceHitsAlmostAlways) {
    MemcachedServer server;
    auto spec = cache_spec(server, "cache-aside", "text", {{{"ops", 5000}, {"concurrency", 2}}});
    spec["cache"]["prefill"] = true;
    const auto before = cache_counters(server);
    const auto s = run_json(spec);
    const auto after = cache_counters(server);
    EXPECT_EQ(s.prefill_sets, 2000u);
    EXPECT_GE(s.overall.totals.hit_rate(), 0.999);
    // The prefill's sets reach the server but are not part of the run's figures.
    EXPECT_EQ(after.cmd_set - before.cmd_set, op_count(s, "set") + s.prefill_sets);
    const auto& get = s.overall.totals.ops.at("get");
    EXPECT_GT(s.overall.totals.bytes_in, get.count * 16);
}

TEST(CacheAside, KeySpaceFarLargerThanMemoryMostlyMisses) {
    MemcachedServer server(8);  // 8 MB
    auto spec = cache_spec(server, "cache-aside", "text", {{{"ops", 6000}, {"concurrency", 2}}});
    spec["cache"]["keys"]["count"] = 1'000'000'000;
    spec["cache"]["value_size"] = {{"min", 8000}, {"max", 10000}};
    const auto s = run_json(spec);
    const auto& t = s.overall.totals;
    EXPECT_LT(t.hit_rate(), 0.05);
    EXPECT_EQ(op_count(s, "set"), t.misses);  // puts = misses
    EXPECT_EQ(t.total_errors(), 0u);
}

TEST(OpenModel, HoldsThePlannedRate) {
    MemcachedServer server;
    Collector collector;
    const auto s = run_json(
        cache_spec(server, "get-only", "text", {{{"duration_s", 2}, {"rate", 2000}}}), &collector);
    // Every op due is sent or, when the generator fell behind at the end, counted as dropped.
    EXPECT_EQ(op_count(s, "get") + s.overall.totals.dropped, 4000u);
    EXPECT_LT(s.overall.totals.dropped, 200u);
    // A drain (replies after the phase's end, which a loaded machine may leave) plans nothing.
    for (const auto& sample : collector.samples) {
        if (!sample.drain) {
            EXPECT_DOUBLE_EQ(sample.planned_rate, 2000);
        }
    }
}

// A server that stops answering for 300 ms: the ops due meanwhile go out late, and since
// latency counts from each op's intended time, the percentiles show the stall instead of
// hiding it behind one slow reply.
TEST(OpenModel, LatencyCountsFromTheIntendedTime) {
    MemcachedServer server;
    std::thread staller([&] {
        while (server.stat("cmd_get") < 300)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        server.pause();
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        server.resume();
    });
    const auto s = run_json(cache_spec(
        server, "get-only", "text", {{{"duration_s", 1.5}, {"rate", 1000}, {"concurrency", 1}}}));
    staller.join();
    const auto& t = s.overall.totals;
    EXPECT_EQ(t.total_errors(), 0u);
    EXPECT_GT(t.late, 100u);                         // ~300 ops were due during the stall
    EXPECT_GT(t.latency().percentile(99), 250'000);  // the first of them waited it out
    EXPECT_EQ(t.total_ops() + t.dropped, 1500u);
}

TEST(Phases, EverySampleBelongsToOnePhase) {
    MemcachedServer server;
    Collector collector;
    const auto s = run_json(cache_spec(server, "ratio", "text",
                                       {{{"duration_s", 0.5}, {"concurrency", 1}},
                                        {{"duration_s", 0.5}, {"concurrency", 4}},
                                        {{"ops", 500}, {"concurrency", 2}}}),
                            &collector);
    ASSERT_EQ(s.phases.size(), 3u);
    EXPECT_EQ(op_count(s, "get") + op_count(s, "set"),
              s.phases[0].totals.total_ops() + s.phases[1].totals.total_ops() + 500);
    EXPECT_EQ(s.phases[2].totals.total_ops(), 500u);
    int phase_events = 0;
    for (const auto& e : collector.events)
        phase_events += e.kind == "phase";
    EXPECT_EQ(phase_events, 3);
    int last_phase = 0;
    for (const auto& sample : collector.samples) {
        EXPECT_GE(sample.phase, last_phase);
        last_phase = sample.phase;
    }
}

// memcached stopped mid-run: errors are counted per tick and the run goes on; started again
// on the same port: the engine reconnects and the errors stop.
TEST(Faults, ServerStoppedAndRestartedMidRun) {
    MemcachedServer server;
    Collector collector;
    struct ErrorTicks : RunObserver {
        std::atomic<int> seen{0};
        void on_sample(const IntervalSample& sample) override { seen += sample.total_errors() > 0; }
    } error_ticks;
    std::atomic<bool> over{false};
    // The outage follows the run, not the clock: the server stops once it has answered a
    // thousand gets and starts again once the run has counted errors in three ticks.
    std::thread chaos([&] {
        wait_until([&] { return over.load() || server.stat("cmd_get") >= 1000; });
        server.stop();
        wait_until([&] { return over.load() || error_ticks.seen >= 3; });
        server.start();
    });
    const auto s = run_json(
        cache_spec(server, "cache-aside", "text", {{{"duration_s", 6}, {"concurrency", 2}}}),
        &collector, &error_ticks);
    over = true;
    chaos.join();
    EXPECT_EQ(s.status, RunStatus::completed);
    ASSERT_GE(collector.samples.size(), 20u);
    EXPECT_GE(error_ticks.seen, 3);
    EXPECT_GT(
        s.overall.totals.errors.count("connection") + s.overall.totals.errors.count("timeout"), 0u);
    // Well after the restart: ops succeed again, without errors.
    const auto& last = collector.samples.back();
    EXPECT_GT(last.total_ops(), 0u);
    EXPECT_EQ(last.total_errors(), 0u);
    EXPECT_GT(last.ops.at("get").count, 0u);
}

}  // namespace
}  // namespace perflab::test
