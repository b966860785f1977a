// SPDX-License-Identifier: MIT
// The servers' figures of a span of a run, from probe samples whose values are known.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "model/spec.h"
#include "server_figures.h"
#include "slo_watch.h"

namespace perflab {
namespace {

ProbeSample sample(int64_t t_ms, const std::string& kind, const std::string& source,
                   nlohmann::json values) {
    ProbeSample s;
    s.t_ms = t_ms;
    s.kind = kind;
    s.source = source;
    s.values = std::move(values);
    return s;
}

std::map<std::string, double> as_map(const std::vector<std::pair<std::string, double>>& v) {
    return {v.begin(), v.end()};
}

const std::vector<ProbeSample> kSamples = {
    sample(1000, "jvm", "jvm local pid 1",
           {{"full_gc_delta", 0}, {"young_gc_ms", 5.0}, {"full_gc_ms", 0.0}}),
    sample(1000, "host", "local", {{"cpu_busy", 20.0}}),
    sample(1000, "memcached", "memcached a", {{"evictions", 100}, {"bytes", 1000}}),
    sample(2000, "jvm", "jvm local pid 1",
           {{"full_gc_delta", 1}, {"young_gc_ms", 2.0}, {"full_gc_ms", 300.0}}),
    sample(2000, "host", "local", {{"cpu_busy", 60.0}}),
    sample(2000, "host", "db1", {{"cpu_busy", 40.0}}),
    sample(2000, "memcached", "memcached a", {{"evictions", 130}, {"bytes", 4000}}),
    sample(3000, "jvm", "jvm local pid 1",
           {{"full_gc_delta", 2}, {"young_gc_ms", 1.0}, {"full_gc_ms", 500.0}}),
    sample(3000, "host", "local", {{"cpu_busy", 90.0}}),
    sample(3000, "memcached", "memcached a", {{"evictions", 180}, {"bytes", 3000}}),
};

TEST(ServerFigures, WholeRun) {
    const auto f = as_map(server_figures(kSamples, -1, 3000));
    EXPECT_EQ(f.at("jvm_full_gcs"), 3);
    EXPECT_EQ(f.at("jvm_gc_ms"), 808);
    EXPECT_EQ(f.at("host_cpu_mean_pct"), 52.5);  // (20 + 60 + 40 + 90) / 4
    EXPECT_EQ(f.at("host_cpu_max_pct"), 90);
    EXPECT_EQ(f.at("memcached_evictions"), 80);  // the counter's rise over the run's ticks
    EXPECT_EQ(f.at("memcached_bytes_max"), 4000);
}

TEST(ServerFigures, ASpanCountsFromTheTickBeforeIt) {
    const auto f = as_map(server_figures(kSamples, 2000, 3000));
    EXPECT_EQ(f.at("jvm_full_gcs"), 2);
    EXPECT_EQ(f.at("jvm_gc_ms"), 501);
    EXPECT_EQ(f.at("host_cpu_mean_pct"), 90);
    EXPECT_EQ(f.at("memcached_evictions"), 50);  // 180 at its end, 130 the tick before
    EXPECT_EQ(f.at("memcached_bytes_max"), 3000);
}

TEST(ServerFigures, NoProbeOfAKindGivesNaN) {
    std::vector<ProbeSample> hosts = {sample(1000, "host", "local", {{"cpu_busy", 10.0}})};
    hosts.push_back(sample(2000, "jvm", "jvm x", {{"full_gc_delta", 1}}));
    hosts.back().gap = true;  // a tick the probe missed says nothing
    const auto f = as_map(server_figures(hosts, -1, 5000));
    EXPECT_EQ(f.at("host_cpu_max_pct"), 10);
    EXPECT_TRUE(std::isnan(f.at("jvm_full_gcs")));
    EXPECT_TRUE(std::isnan(f.at("memcached_evictions")));
    EXPECT_TRUE(std::isnan(f.at("memcached_bytes_max")));
}

// A Redis probe's span: its samples' counts summed, the hit rate of their lookups together (not
// a mean of each tick's), the most memory used; a span without a lookup has no hit rate.
TEST(ServerFigures, RedisSumsItsSamplesCounts) {
    const std::vector<ProbeSample> samples = {
        sample(1000, "redis", "redis a",
               {{"evictions_delta", 5},
                {"keyspace_hits_delta", 1},
                {"keyspace_misses_delta", 0},
                {"used_memory", 7000}}),
        sample(2000, "redis", "redis a",
               {{"evictions_delta", 20},
                {"keyspace_hits_delta", 2},
                {"keyspace_misses_delta", 6},
                {"used_memory", 9000}}),
        sample(3000, "redis", "redis a",
               {{"evictions_delta", 0},
                {"keyspace_hits_delta", 0},
                {"keyspace_misses_delta", 0},
                {"used_memory", 8000}}),
    };
    auto f = as_map(server_figures(samples, -1, 3000));
    EXPECT_EQ(f.at("redis_evictions"), 25);
    EXPECT_EQ(f.at("redis_hit_pct"), 100.0 * 3 / 9);
    EXPECT_EQ(f.at("redis_memory_max"), 9000);
    EXPECT_TRUE(std::isnan(f.at("memcached_evictions")));
    f = as_map(server_figures(samples, 2000, 3000));
    EXPECT_EQ(f.at("redis_evictions"), 0);
    EXPECT_TRUE(std::isnan(f.at("redis_hit_pct")));
    EXPECT_TRUE(std::isnan(as_map(server_figures(kSamples, -1, 3000)).at("redis_evictions")));
}

// A probe sample stamped exactly at a phase change covers the second before it: the ending
// phase's, in the SLO verdict as in the Servers table (they disagreed: 0 and 2 against 1 and 1).
TEST(ServerFigures, ASampleAtAPhaseChangeIsTheEndingPhasesInTheVerdictAsInTheTable) {
    const auto r = parse_spec(
        {{"kind", "cache"},
         {"phases", {{{"duration_s", 10}, {"rate", 10}}, {{"duration_s", 10}, {"rate", 10}}}},
         {"cache", {{"servers", {"127.0.0.1:11211"}}}},
         {"probes", {{{"jvm", {{"pid", 1}}}}}},
         {"slo", {{"max_full_gcs", 0}}}});
    ASSERT_TRUE(r) << r.error_text();
    SloWatch watch(
        *r.spec, [](const RunEvent&) {}, [] {});
    watch.phase_began(1, 10'000);
    const std::vector<ProbeSample> samples = {
        sample(9'000, "jvm", "jvm x", {{"full_gc_delta", 0}}),
        sample(10'000, "jvm", "jvm x", {{"full_gc_delta", 1}}),
        sample(19'000, "jvm", "jvm x", {{"full_gc_delta", 0}}),
        sample(20'000, "jvm", "jvm x", {{"full_gc_delta", 1}}),
    };
    for (const auto& s : samples)
        watch.on_probe_sample(s);
    EXPECT_EQ(watch.full_gcs(0), 1u);
    EXPECT_EQ(watch.full_gcs(1), 1u);
    EXPECT_EQ(as_map(server_figures(samples, -1, 10'000)).at("jvm_full_gcs"), 1);
    EXPECT_EQ(as_map(server_figures(samples, 10'000, 20'000)).at("jvm_full_gcs"), 1);
}

}  // namespace
}  // namespace perflab
