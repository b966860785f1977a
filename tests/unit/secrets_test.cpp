// SPDX-License-Identifier: MIT
// ${NAME} references in HTTP header values and bodies: checked when a spec is parsed, resolved
// when a run starts, kept as written when the spec is stored; literal credentials masked.
#include "model/secrets.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "model/spec.h"

namespace perflab {
namespace {

using nlohmann::json;

json http_spec(json target) {
    return {{"kind", "http"},
            {"phases", {{{"duration_s", 1}, {"rate", 10}}}},
            {"http", {{"targets", {target}}}}};
}

RunSpec parsed(const json& j) {
    const SpecResult r = parse_spec(j);
    EXPECT_TRUE(r) << r.error_text();
    return r ? *r.spec : RunSpec{};
}

Environment env(std::map<std::string, std::string> vars) {
    return [vars](const std::string& name) -> std::optional<std::string> {
        const auto it = vars.find(name);
        if (it == vars.end()) return std::nullopt;
        return it->second;
    };
}

const HttpTarget& target(const SpecResult& r) {
    return r.spec->http->targets.at(0);
}

TEST(Secrets, ReferencesAnywhereInAHeaderOrBodyAreResolved) {
    const RunSpec spec = parsed(
        http_spec({{"url", "http://127.0.0.1/"},
                   {"headers", {{"Authorization", "Bearer ${TOKEN}"}, {"X-Pair", "${A}:${B_2}"}}},
                   {"body", "{\"key\": \"${TOKEN}\"}"}}));
    const SpecResult r = resolve_references(spec, env({{"TOKEN", "t0k"}, {"A", "a"}, {"B_2", ""}}));
    ASSERT_TRUE(r) << r.error_text();
    EXPECT_EQ(target(r).headers.at(0).second, "Bearer t0k");
    EXPECT_EQ(target(r).headers.at(1).second, "a:");
    EXPECT_EQ(target(r).body, "{\"key\": \"t0k\"}");
    EXPECT_EQ(spec.http->targets.at(0).headers.at(0).second, "Bearer ${TOKEN}");
}

TEST(Secrets, DoubleDollarIsALiteralReference) {
    const RunSpec spec = parsed(http_spec(
        {{"url", "http://127.0.0.1/"}, {"headers", {{"X-Template", "$${TOKEN} costs $5"}}}}));
    const SpecResult r = resolve_references(spec, env({}));
    ASSERT_TRUE(r) << r.error_text();
    EXPECT_EQ(target(r).headers.at(0).second, "${TOKEN} costs $5");
}

TEST(Secrets, MissingVariableNamesTheFieldAndTheVariable) {
    const RunSpec spec = parsed(http_spec({{"url", "http://127.0.0.1/"},
                                           {"headers", {{"Authorization", "Bearer ${TOKEN}"}}},
                                           {"body", "${BODY_SECRET}"}}));
    const SpecResult r = resolve_references(spec, env({}));
    ASSERT_FALSE(r);
    ASSERT_EQ(r.errors.size(), 2u);
    EXPECT_EQ(r.errors[0].text(),
              "http.targets[0].headers.Authorization: environment variable TOKEN is not set");
    EXPECT_EQ(r.errors[1].text(),
              "http.targets[0].body: environment variable BODY_SECRET is not set");
}

TEST(Secrets, MalformedReferenceIsABadSpec) {
    for (const char* value : {"Bearer ${TOKEN", "${}", "${1X}", "${A B}"}) {
        const SpecResult r = parse_spec(
            http_spec({{"url", "http://127.0.0.1/"}, {"headers", {{"Authorization", value}}}}));
        ASSERT_FALSE(r) << value;
        EXPECT_EQ(r.errors.at(0).path, "http.targets[0].headers.Authorization") << value;
        EXPECT_NE(r.errors.at(0).message.find("$${"), std::string::npos) << r.error_text();
    }
    const SpecResult body = parse_spec(http_spec({{"url", "http://127.0.0.1/"}, {"body", "${"}}));
    ASSERT_FALSE(body);
    EXPECT_EQ(body.errors.at(0).path, "http.targets[0].body");
}

TEST(Secrets, LiteralCredentialsAreMaskedReferencesKept) {
    const RunSpec spec = parsed(http_spec({{"url", "http://127.0.0.1/"},
                                           {"headers",
                                            {{"authorization", "Basic dXNlcjpwYXNz"},
                                             {"COOKIE", "secret=abc"},
                                             {"Proxy-Authorization", "Bearer ${PROXY}"},
                                             {"X-Api-Key", "not a credential header"}}},
                                           {"body", "password=hunter2"}}));
    const json stored = masked_for_storage(to_json(spec));
    const json& headers = stored["http"]["targets"][0]["headers"];
    EXPECT_EQ(headers["authorization"], "***");
    EXPECT_EQ(headers["COOKIE"], "***");
    EXPECT_EQ(headers["Proxy-Authorization"], "Bearer ${PROXY}");
    EXPECT_EQ(headers["X-Api-Key"], "not a credential header");
    EXPECT_EQ(stored["http"]["targets"][0]["body"], "password=hunter2");
    EXPECT_EQ(stored.dump().find("secret=abc"), std::string::npos);
    EXPECT_TRUE(parse_spec(stored)) << "the stored spec stays a valid spec";
}

// A Redis password takes one rule in a cache run and in a probe: a literal or ${NAME}
// references, a literal masked when written down, and the same message for each fault.
TEST(Secrets, RedisPasswordsOfTheCacheAndOfAProbeTakeTheSameForms) {
    const auto spec_with = [](const json& password) {
        return json{{"kind", "cache"},
                    {"phases", {{{"duration_s", 1}, {"concurrency", 1}}}},
                    {"cache",
                     {{"servers", {"127.0.0.1:6379"}},
                      {"protocol", "redis"},
                      {"redis", {{"password", password}}}}},
                    {"probes", {{{"redis", "127.0.0.1:6379"}, {"password", password}}}}};
    };
    for (const std::string given : {"s3cret", "${REDIS_PW}", "pre-${REDIS_PW}"}) {
        const RunSpec spec = parsed(spec_with(given));
        EXPECT_EQ(spec.cache->redis.password, given);
        EXPECT_EQ(spec.probes.at(0).password, given);
        const json stored = masked_for_storage(to_json(spec));
        const json written = given == "s3cret" ? json("***") : json(given);
        EXPECT_EQ(stored["cache"]["redis"]["password"], written);
        EXPECT_EQ(stored["probes"][0]["password"], written);
    }
    for (const char* bad : {"", "${OPEN"}) {
        const SpecResult r = parse_spec(spec_with(bad));
        std::map<std::string, std::string> said;
        for (const auto& e : r.errors)
            said[e.path] = e.message;
        ASSERT_EQ(said.size(), 2u) << r.error_text();
        EXPECT_FALSE(said["cache.redis.password"].empty()) << r.error_text();
        EXPECT_EQ(said["cache.redis.password"], said["probes[0].password"]);
    }
    // Resolved as the run starts (the cache's) or the probe opens: the mask of a literal and a
    // variable not set are refused alike.
    for (const char* given : {"***", "${REDIS_PW}"}) {
        std::vector<SpecError> cache, probe;
        resolve_redis_password(given, "cache.redis.password", env({}), cache);
        resolve_redis_password(given, "probes[0].password", env({}), probe);
        ASSERT_EQ(cache.size(), 1u) << given;
        ASSERT_EQ(probe.size(), 1u) << given;
        EXPECT_EQ(cache[0].message, probe[0].message);
    }
    std::vector<SpecError> none;
    EXPECT_EQ(resolve_redis_password("a${REDIS_PW}", "p", env({{"REDIS_PW", "b"}}), none), "ab");
    EXPECT_TRUE(none.empty());
}

TEST(Secrets, MaskingLeavesOtherJsonAlone) {
    for (const json& j : {json::object(), json("text"), json{{"http", 1}},
                          json{{"http", {{"targets", {1, {{"headers", "x"}}}}}}}})
        EXPECT_EQ(masked_for_storage(j), j);
    EXPECT_FALSE(masked_for_storage(json{{"http", json::object()}})["http"].contains("targets"));
}

TEST(Secrets, MaskedCredentialIsRefusedWhenRunAgain) {
    const RunSpec spec =
        parsed(http_spec({{"url", "http://127.0.0.1/"}, {"headers", {{"Cookie", "secret=abc"}}}}));
    const RunSpec stored = parsed(masked_for_storage(to_json(spec)));
    const SpecResult r = resolve_references(stored, env({}));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.errors.at(0).path, "http.targets[0].headers.Cookie");
    EXPECT_NE(r.errors.at(0).message.find("${NAME}"), std::string::npos) << r.error_text();
}

}  // namespace
}  // namespace perflab
