// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/spec.h"
#include "redis_info.h"

namespace perflab {
namespace {

nlohmann::json with_probe(const nlohmann::json& probe) {
    return {{"name", "t"},
            {"kind", "http"},
            {"phases", {{{"duration_s", 1}, {"rate", 10}}}},
            {"http", {{"targets", {{{"url", "http://127.0.0.1:9/"}}}}}},
            {"probes", {probe}}};
}

TEST(RedisProbeSpec, ReadsEveryKeyAndRoundTrips) {
    const nlohmann::json probe = {{"redis", "10.0.0.5:6380"},
                                  {"password", "${REDIS_PASSWORD}"},
                                  {"via", "admin@db1:2222"},
                                  {"key", "/keys/id"}};
    const SpecResult r = parse_spec(with_probe(probe));
    ASSERT_TRUE(r) << r.error_text();
    const ProbeSpec& p = r.spec->probes.at(0);
    EXPECT_EQ(p.type, ProbeSpec::Type::redis);
    EXPECT_EQ(p.server, "10.0.0.5:6380");
    EXPECT_EQ(p.password, "${REDIS_PASSWORD}");
    EXPECT_EQ(p.target, "admin@db1:2222");
    EXPECT_EQ(p.key, "/keys/id");
    EXPECT_EQ(to_json(*r.spec).at("probes").at(0), probe);
    EXPECT_EQ(std::string(to_string(p.type)), "redis");
}

// Each mistake is named by its field. A password takes what a cache run's takes (a literal,
// masked when written down, or ${NAME} references): only a broken reference or none is wrong.
TEST(RedisProbeSpec, BadProbesNameTheirField) {
    const std::vector<std::pair<nlohmann::json, std::string>> cases = {
        {{{"redis", "127.0.0.1"}}, "probes[0].redis"},
        {{{"redis", 6379}}, "probes[0].redis"},
        {{{"redis", "127.0.0.1:6379"}, {"via", "db1"}}, "probes[0].via"},
        {{{"redis", "127.0.0.1:6379"}, {"password", "${OPEN"}}, "probes[0].password"},
        {{{"redis", "127.0.0.1:6379"}, {"password", ""}}, "probes[0].password"},
        {{{"redis", "127.0.0.1:6379"}, {"metrics", {"up"}}}, "probes[0].metrics"},
        {{{"memcached", "127.0.0.1:11211"}, {"password", "${A}"}}, "probes[0].password"},
        {{{"redis", "127.0.0.1:6379"}, {"memcached", "127.0.0.1:11211"}}, "probes[0]"},
    };
    for (const auto& [probe, field] : cases) {
        const SpecResult r = parse_spec(with_probe(probe));
        EXPECT_FALSE(r) << probe.dump();
        EXPECT_NE(r.error_text().find(field + ":"), std::string::npos) << probe.dump() << "\n"
                                                                       << r.error_text();
    }
}

TEST(RedisInfo, RespRepliesAreReadWholeOrNotYet) {
    EXPECT_FALSE(read_resp_reply("$5\r\nhel"));
    EXPECT_FALSE(read_resp_reply("+O"));
    const auto bulk = read_resp_reply("$5\r\nhello\r\n+OK\r\n");
    ASSERT_TRUE(bulk);
    EXPECT_EQ(bulk->first.type, '$');
    EXPECT_EQ(bulk->first.text, "hello");
    EXPECT_EQ(bulk->second, 11u);
    const auto error = read_resp_reply("-WRONGPASS invalid username-password pair\r\n");
    ASSERT_TRUE(error);
    EXPECT_EQ(error->first.type, '-');
    EXPECT_EQ(error->first.text, "WRONGPASS invalid username-password pair");
    EXPECT_TRUE(read_resp_reply("$-1\r\n")->first.nil);
    EXPECT_THROW(read_resp_reply(":1\r\n"), std::runtime_error);
    EXPECT_THROW(read_resp_reply("$x\r\n"), std::runtime_error);
    EXPECT_EQ(resp_command({"INFO", "all"}), "*2\r\n$4\r\nINFO\r\n$3\r\nall\r\n");
}

// Two INFO replies a second apart, as Redis 7.0 prints them.
TEST(RedisInfo, ValuesAreCountsRatesAndTheServersPercentiles) {
    const auto before = parse_redis_info(
        "# Stats\r\ntotal_commands_processed:100\r\nkeyspace_hits:10\r\nkeyspace_misses:5\r\n"
        "evicted_keys:0\r\nexpired_keys:1\r\n# CPU\r\nused_cpu_sys:1.0\r\nused_cpu_user:2.0\r\n");
    const auto after = parse_redis_info(
        "# Memory\r\nused_memory:4194304\r\nmaxmemory:8388608\r\n# Clients\r\n"
        "connected_clients:3\r\nblocked_clients:1\r\n# Stats\r\ninstantaneous_ops_per_sec:180\r\n"
        "total_commands_processed:300\r\nkeyspace_hits:40\r\nkeyspace_misses:15\r\n"
        "evicted_keys:7\r\nexpired_keys:3\r\n# CPU\r\nused_cpu_sys:1.1\r\nused_cpu_user:2.15\r\n"
        "# Latencystats\r\nlatency_percentiles_usec_get:p50=6.015,p99=20.223,p99.9=40.191\r\n");
    const nlohmann::json v = redis_values(before, after, 2.0);
    EXPECT_EQ(v.at("ops_delta"), 200);
    EXPECT_EQ(v.at("ops_ps"), 100);
    EXPECT_EQ(v.at("instantaneous_ops_per_sec"), 180);
    EXPECT_EQ(v.at("keyspace_hits_delta"), 30);
    EXPECT_EQ(v.at("keyspace_misses_delta"), 10);
    EXPECT_EQ(v.at("hit_pct"), 75);
    EXPECT_EQ(v.at("evictions"), 7);
    EXPECT_EQ(v.at("evictions_delta"), 7);
    EXPECT_EQ(v.at("evictions_ps"), 3.5);
    EXPECT_EQ(v.at("expired_keys_delta"), 2);
    EXPECT_EQ(v.at("mem_pct"), 50);
    EXPECT_EQ(v.at("connected_clients"), 3);
    EXPECT_EQ(v.at("blocked_clients"), 1);
    EXPECT_NEAR(v.at("cpu_pct").get<double>(), 12.5, 1e-9);
    EXPECT_EQ(v.at("latency_get_p50_us"), 6.015);
    EXPECT_EQ(v.at("latency_get_p99_us"), 20.223);
    EXPECT_EQ(v.at("latency_get_p999_us"), 40.191);
    // No limit: no share of it.
    EXPECT_FALSE(redis_values(before, before, 1.0).contains("mem_pct"));
}

}  // namespace
}  // namespace perflab
