// SPDX-License-Identifier: MIT
// The field notes' cache-aside story as one run: a hot key space, then a cold one. Each phase's
// hits, misses and sets equal the server's own counters' rises over that phase, read at the
// phase boundary while nothing is in flight, with both cache drivers and both protocols.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "engine.h"
#include "memcached_server.h"
#include "model/spec.h"
#include "redis_server.h"
#include "run_controller.h"

namespace perflab {
namespace {

using nlohmann::json;
using test::MemcachedServer;
using test::RedisServer;

struct ServerCounts {
    uint64_t hits = 0, misses = 0, sets = 0;
};

struct PhasedRun {
    RunSummary summary;
    std::vector<ServerCounts> marks;  // before the run, at each phase's end
};

// Count-limited phases end once every op of theirs is answered: the counters read between two
// phases (the controller's follow hook, called before the next one begins) are that phase's.
PhasedRun run_reading(const json& spec_json, const std::function<ServerCounts()>& read) {
    const auto parsed = parse_spec(spec_json);
    if (!parsed) throw std::runtime_error("invalid spec: " + parsed.error_text());
    RunController controller(*parsed.spec, make_engine(*parsed.spec));
    PhasedRun run;
    run.marks.push_back(read());
    controller.follow([&](int) -> std::optional<RunController::StepOrder> {
        run.marks.push_back(read());
        return RunController::StepOrder{0, Clock::now(), 0};
    });
    run.summary = controller.run();
    run.marks.push_back(read());
    return run;
}

json hot_then_cold(const std::string& server, const json& cache) {
    json spec = {{"kind", "cache"},
                 {"seed", 33},
                 {"phases",
                  {{{"ops", 3000}, {"concurrency", 4}},
                   {{"ops", 3000}, {"concurrency", 4}, {"keys", {{"count", 10'000'000'000ull}}}}}},
                 {"cache",
                  {{"servers", {server}},
                   {"workload", "cache-aside"},
                   {"keys", {{"count", 50}, {"prefix", "hot:"}}},
                   {"value_size", {{"min", 16}, {"max", 64}}}}}};
    spec["cache"].update(cache);
    return spec;
}

void expect_phases_match_server(const PhasedRun& run) {
    ASSERT_EQ(run.summary.status, RunStatus::completed) << run.summary.error;
    ASSERT_EQ(run.summary.phases.size(), 2u);
    ASSERT_EQ(run.marks.size(), 3u);
    for (size_t i = 0; i < 2; ++i) {
        const auto& t = run.summary.phases[i].totals;
        const ServerCounts& from = run.marks[i];
        const ServerCounts& to = run.marks[i + 1];
        SCOPED_TRACE("phase " + std::to_string(i + 1));
        EXPECT_EQ(t.total_errors(), 0u);
        EXPECT_EQ(t.hits, to.hits - from.hits);
        EXPECT_EQ(t.misses, to.misses - from.misses);
        EXPECT_EQ(t.ops.at("set").count, to.sets - from.sets);
        EXPECT_EQ(t.hits + t.misses, 3000u);
    }
    // What the reports say of each phase's workload.
    ASSERT_EQ(run.summary.phase_loads.size(), 2u);
    EXPECT_EQ(run.summary.phase_loads[0].keys.count, 50u);
    EXPECT_EQ(run.summary.phase_loads[1].keys.count, 10'000'000'000u);
    const auto& hot = run.summary.phases[0].totals;
    const auto& cold = run.summary.phases[1].totals;
    // 50 hot keys: each missed about once per run, then hit; the cold space is never hit twice.
    EXPECT_GT(hot.hit_rate(), 0.9);
    EXPECT_LT(cold.hit_rate(), 0.01);
    EXPECT_EQ(cold.ops.at("set").count, cold.misses);
}

ServerCounts memcached_counts(const MemcachedServer& server) {
    const auto c = test::cache_counters(server);
    return {c.get_hits, c.get_misses, c.cmd_set};
}

ServerCounts redis_counts(const RedisServer& server) {
    return {server.info_number("stats", "keyspace_hits"),
            server.info_number("stats", "keyspace_misses"), server.calls("set")};
}

TEST(PhaseLoads, HotThenColdOnMemcachedWithLibmemcached) {
    MemcachedServer server;
    const auto run = run_reading(hot_then_cold(server.endpoint(), {{"driver", "libmemcached"}}),
                                 [&] { return memcached_counts(server); });
    expect_phases_match_server(run);
}

TEST(PhaseLoads, HotThenColdOnMemcachedWithTheAsyncDriverPipelined) {
    MemcachedServer server;
    const auto run =
        run_reading(hot_then_cold(server.endpoint(),
                                  {{"driver", "async"}, {"protocol", "meta"}, {"pipeline", 8}}),
                    [&] { return memcached_counts(server); });
    expect_phases_match_server(run);
}

TEST(PhaseLoads, HotThenColdOnRedis) {
    RedisServer server;
    const auto run =
        run_reading(hot_then_cold(server.endpoint(), {{"protocol", "redis"}, {"pipeline", 8}}),
                    [&] { return redis_counts(server); });
    expect_phases_match_server(run);
}

// A phase's own workload and value sizes, not only its keys: set-only values of the phase's
// sizes into its key space, then get-only over it.
TEST(PhaseLoads, EachPhaseHasItsOwnWorkloadAndSizes) {
    RedisServer server;
    json spec = hot_then_cold(server.endpoint(), {{"protocol", "redis"}});
    spec["phases"][0] = {
        {"ops", 200},
        {"concurrency", 2},
        {"workload", "set-only"},
        {"keys", {{"count", 200}, {"prefix", "own:"}, {"distribution", "sequential"}}},
        {"value_size", {{"min", 1000}, {"max", 1000}}}};
    spec["phases"][1] = {{"ops", 400},
                         {"concurrency", 2},
                         {"workload", "get-only"},
                         {"keys", {{"count", 200}, {"prefix", "own:"}}}};
    const auto run = run_reading(spec, [&] { return redis_counts(server); });
    ASSERT_EQ(run.summary.status, RunStatus::completed) << run.summary.error;
    const auto& sets = run.summary.phases[0].totals;
    const auto& gets = run.summary.phases[1].totals;
    EXPECT_EQ(sets.ops.at("set").count, 200u);
    EXPECT_EQ(sets.bytes_out, 200u * 1000u);
    EXPECT_EQ(sets.ops.at("get").count, 0u);
    EXPECT_EQ(gets.ops.at("set").count, 0u);
    EXPECT_EQ(gets.hits, run.marks[2].hits - run.marks[1].hits);
    EXPECT_EQ(gets.misses, run.marks[2].misses - run.marks[1].misses);
    EXPECT_GT(gets.hits, 0u);
    EXPECT_EQ(gets.bytes_in, gets.hits * 1000u);
}

}  // namespace
}  // namespace perflab
