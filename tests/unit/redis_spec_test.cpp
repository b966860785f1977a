// SPDX-License-Identifier: MIT
// "protocol": "redis" in a cache spec: its "redis" keys read, written back and refused by
// name; its password a ${NAME} reference resolved at start, a literal one masked when stored.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/secrets.h"
#include "model/spec.h"

namespace perflab {
namespace {

using nlohmann::json;

json redis_cache(json redis = json::object()) {
    json cache = {{"servers", {"127.0.0.1:6379"}}, {"protocol", "redis"}};
    if (!redis.empty()) cache["redis"] = std::move(redis);
    return {{"kind", "cache"}, {"phases", {{{"ops", 10}, {"concurrency", 1}}}}, {"cache", cache}};
}

std::vector<std::string> errors_of(const json& j) {
    std::vector<std::string> out;
    for (const auto& e : parse_spec(j).errors)
        out.push_back(e.text());
    return out;
}

::testing::AssertionResult has_error(const json& j, const std::string& text) {
    const auto errors = errors_of(j);
    for (const auto& e : errors)
        if (e == text) return ::testing::AssertionSuccess();
    auto failure = ::testing::AssertionFailure() << "no \"" << text << "\" among:";
    for (const auto& e : errors)
        failure << "\n  " << e;
    return failure;
}

TEST(RedisSpec, ReadsItsKeysAndRoundTrips) {
    const auto r = parse_spec(
        redis_cache({{"hello", 2}, {"user", "app"}, {"password", "${REDIS_PASSWORD}"}, {"db", 3}}));
    ASSERT_TRUE(r) << r.error_text();
    const CacheSpec& c = *r.spec->cache;
    EXPECT_EQ(c.protocol, CacheProtocol::redis);
    EXPECT_EQ(c.redis.hello, 2);
    EXPECT_EQ(c.redis.user, "app");
    EXPECT_EQ(c.redis.password, "${REDIS_PASSWORD}");
    EXPECT_EQ(c.redis.db, 3);
    // Redis is spoken by the async driver only, which is chosen when none is named.
    EXPECT_EQ(effective_driver(c), CacheDriver::async);
    const auto again = parse_spec(to_json(*r.spec));
    ASSERT_TRUE(again) << again.error_text();
    EXPECT_EQ(again.spec->cache->redis, c.redis);
    EXPECT_EQ(again.spec->cache->protocol, CacheProtocol::redis);

    // Nothing given: RESP3 if the server has it, no AUTH, database 0.
    const auto plain = parse_spec(redis_cache());
    ASSERT_TRUE(plain) << plain.error_text();
    EXPECT_EQ(plain.spec->cache->redis, RedisHandshake{});
}

TEST(RedisSpec, NamesTheOffendingKey) {
    json j = redis_cache();
    j["cache"]["driver"] = "libmemcached";
    EXPECT_TRUE(has_error(j, R"(cache.protocol: "redis" needs "driver": "async")"));
    EXPECT_TRUE(has_error(redis_cache({{"hello", 4}}),
                          "cache.redis.hello: must be between 2 and 3, got 4"));
    EXPECT_TRUE(has_error(redis_cache({{"db", -1}}),
                          "cache.redis.db: must be between 0 and 2147483647, got -1"));
    EXPECT_TRUE(has_error(redis_cache({{"pass", "x"}}), "cache.redis.pass: unknown key"));
    EXPECT_TRUE(has_error(redis_cache({{"user", "app"}}),
                          R"(cache.redis.password: required with "user" (AUTH sends both))"));
    EXPECT_TRUE(has_error(redis_cache({{"user", "a b"}, {"password", "x"}}),
                          "cache.redis.user: expected a user name without whitespace"));
    EXPECT_TRUE(has_error(
        redis_cache({{"password", "${OPEN"}}),
        R"(cache.redis.password: "${" without its closing "}" (write $${ for a literal ${))"));
    EXPECT_TRUE(has_error(redis_cache("fast"), "cache.redis: expected an object, got string"));
    j = redis_cache({{"db", 1}});
    j["cache"]["protocol"] = "meta";
    EXPECT_TRUE(has_error(j, R"(cache.redis: is for "protocol": "redis")"));
}

TEST(RedisSpec, ClusterIsReadAndRoundTrips) {
    const auto r = parse_spec(redis_cache({{"cluster", true}, {"db", 0}}));
    ASSERT_TRUE(r) << r.error_text();
    EXPECT_TRUE(r.spec->cache->redis.cluster);
    const auto again = parse_spec(to_json(*r.spec));
    ASSERT_TRUE(again) << again.error_text();
    EXPECT_EQ(again.spec->cache->redis, r.spec->cache->redis);
    EXPECT_FALSE(parse_spec(redis_cache()).spec->cache->redis.cluster);

    EXPECT_TRUE(has_error(redis_cache({{"cluster", true}, {"db", 2}}),
                          "cache.redis.db: a Redis Cluster has database 0 only (SELECT is "
                          "refused)"));
    EXPECT_TRUE(has_error(redis_cache({{"cluster", "yes"}}),
                          "cache.redis.cluster: expected true or false, got string"));
}

// Files the spec names are read when it is: this test's own source stands in for a PEM file.
TEST(RedisSpec, TlsIsReadAndRoundTrips) {
    const std::string file = __FILE__;
    const auto r = parse_spec(redis_cache(
        {{"tls",
          {{"ca", file}, {"cert", file}, {"key", file}, {"server_name", "cache.internal"}}}}));
    ASSERT_TRUE(r) << r.error_text();
    const auto& tls = r.spec->cache->redis.tls;
    ASSERT_TRUE(tls);
    EXPECT_EQ(tls->ca, file);
    EXPECT_EQ(tls->server_name, "cache.internal");
    EXPECT_TRUE(tls->verify);
    const auto again = parse_spec(to_json(*r.spec));
    ASSERT_TRUE(again) << again.error_text();
    EXPECT_EQ(again.spec->cache->redis, r.spec->cache->redis);

    // true: the system's CAs, verified, no client certificate; false: no TLS.
    const auto plain = parse_spec(redis_cache({{"tls", true}}));
    ASSERT_TRUE(plain) << plain.error_text();
    EXPECT_EQ(plain.spec->cache->redis.tls, CacheTls{});
    EXPECT_EQ(parse_spec(to_json(*plain.spec)).spec->cache->redis.tls, CacheTls{});
    EXPECT_FALSE(parse_spec(redis_cache({{"tls", false}})).spec->cache->redis.tls);
    const auto unverified = parse_spec(redis_cache({{"tls", {{"verify", false}}}}));
    ASSERT_TRUE(unverified) << unverified.error_text();
    EXPECT_FALSE(parse_spec(to_json(*unverified.spec)).spec->cache->redis.tls->verify);

    EXPECT_TRUE(has_error(redis_cache({{"tls", {{"ca", "/no/such.crt"}}}}),
                          R"(cache.redis.tls.ca: cannot read "/no/such.crt")"));
    EXPECT_TRUE(has_error(redis_cache({{"tls", {{"key", file}}}}),
                          R"(cache.redis.tls.cert: required with "key" (a client certificate )"
                          R"(and its key go together))"));
    EXPECT_TRUE(has_error(redis_cache({{"tls", 1}}),
                          "cache.redis.tls: expected true, false or an object, got integer"));
    // A cluster over TLS: its slot map is read over TLS too.
    const auto cluster = parse_spec(redis_cache({{"tls", true}, {"cluster", true}}));
    ASSERT_TRUE(cluster) << cluster.error_text();
    EXPECT_TRUE(cluster.spec->cache->redis.cluster);
    EXPECT_EQ(parse_spec(to_json(*cluster.spec)).spec->cache->redis, cluster.spec->cache->redis);
}

Environment env_with(const std::string& name, const std::string& value) {
    return [=](const std::string& asked) -> std::optional<std::string> {
        if (asked == name) return value;
        return std::nullopt;
    };
}

TEST(RedisSpec, PasswordIsResolvedAtStartAndMaskedWhenStored) {
    const auto r = parse_spec(redis_cache({{"password", "${REDIS_PASSWORD}"}}));
    ASSERT_TRUE(r) << r.error_text();
    const auto resolved = resolve_references(*r.spec, env_with("REDIS_PASSWORD", "s3cret"));
    ASSERT_TRUE(resolved) << resolved.error_text();
    EXPECT_EQ(resolved.spec->cache->redis.password, "s3cret");
    const auto unset = resolve_references(*r.spec, env_with("OTHER", "x"));
    ASSERT_FALSE(unset);
    EXPECT_EQ(unset.errors.at(0).text(),
              "cache.redis.password: environment variable REDIS_PASSWORD is not set");

    // Written down: a reference as it is, a literal password masked, and the mask refused
    // when such a stored spec is run again.
    EXPECT_EQ(masked_for_storage(to_json(*r.spec))["cache"]["redis"]["password"],
              "${REDIS_PASSWORD}");
    const auto literal = parse_spec(redis_cache({{"password", "s3cret"}}));
    ASSERT_TRUE(literal) << literal.error_text();
    const json stored = masked_for_storage(to_json(*literal.spec));
    EXPECT_EQ(stored["cache"]["redis"]["password"], "***");
    const auto again = parse_spec(stored);
    ASSERT_TRUE(again) << again.error_text();
    const auto rerun = resolve_references(*again.spec, env_with("X", "y"));
    ASSERT_FALSE(rerun);
    EXPECT_NE(rerun.errors.at(0).text().find("cache.redis.password: \"***\" is the mask"),
              std::string::npos)
        << rerun.errors.at(0).text();
}

}  // namespace
}  // namespace perflab
