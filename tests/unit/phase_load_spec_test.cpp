// SPDX-License-Identifier: MIT
// A cache run's phases with a workload of their own: what they read as, what they round-trip
// to, and what is refused, naming the phase and the key.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/spec.h"

namespace perflab {
namespace {

using nlohmann::json;

json hot_then_cold() {
    return json::parse(R"({
      "kind": "cache",
      "phases": [{"duration_s": 10, "concurrency": 4},
                 {"duration_s": 10, "concurrency": 4, "keys": {"count": 10000000000}}],
      "cache": {"servers": ["127.0.0.1:11211"], "workload": "cache-aside",
                "keys": {"count": 1000, "prefix": "user:", "distribution": "zipf"},
                "value_size": {"weights": [[128, 3], [4096, 1]]}}})");
}

std::vector<std::string> errors_of(const json& j) {
    std::vector<std::string> out;
    for (const auto& e : parse_spec(j).errors)
        out.push_back(e.text());
    return out;
}

TEST(PhaseLoadSpec, APhaseChangesOnlyWhatItGives) {
    const auto r = parse_spec(hot_then_cold());
    ASSERT_TRUE(r) << r.error_text();
    const RunSpec& s = *r.spec;
    EXPECT_FALSE(s.phases[0].cache);
    ASSERT_TRUE(s.phases[1].cache);
    const CacheLoad cold = phase_load(*s.cache, s.phases[1]);
    EXPECT_EQ(cold.keys.count, 10'000'000'000u);
    EXPECT_EQ(cold.keys.prefix, "user:");
    EXPECT_EQ(cold.keys.distribution, KeyDistribution::zipf);
    EXPECT_EQ(cold.workload, CacheWorkload::cache_aside);
    EXPECT_EQ(cold.value_size.weighted.size(), 2u);
    EXPECT_EQ(phase_load(*s.cache, s.phases[0]).keys.count, 1000u);
}

TEST(PhaseLoadSpec, RoundTripsAsWhatDiffersFromTheSection) {
    json j = hot_then_cold();
    j["phases"][0]["workload"] = "set-only";
    j["phases"][0]["value_size"] = {{"min", 10}, {"max", 20}, {"bytes", "random"}};
    j["phases"][1]["keys"]["prefix"] = "user:";  // the section's: not a change
    const auto first = parse_spec(j);
    ASSERT_TRUE(first) << first.error_text();
    const json normalised = to_json(*first.spec);
    EXPECT_EQ(normalised["phases"][1]["keys"], json::parse(R"({"count": 10000000000})"));
    EXPECT_EQ(normalised["phases"][0]["workload"], "set-only");
    EXPECT_EQ(normalised["phases"][0]["value_size"],
              json::parse(R"({"min": 10, "max": 20, "bytes": "random"})"));
    const auto second = parse_spec(normalised);
    ASSERT_TRUE(second) << second.error_text();
    for (size_t i = 0; i < 2; ++i)
        EXPECT_EQ(phase_load(*second.spec->cache, second.spec->phases[i]),
                  phase_load(*first.spec->cache, first.spec->phases[i]));
    EXPECT_EQ(to_json(*second.spec), normalised);
}

TEST(PhaseLoadSpec, AnOverrideEqualToTheSectionIsNone) {
    json j = hot_then_cold();
    j["phases"][1]["keys"] = {{"count", 1000}};
    j["phases"][1]["workload"] = "cache-aside";
    const auto r = parse_spec(j);
    ASSERT_TRUE(r) << r.error_text();
    EXPECT_FALSE(r.spec->phases[1].cache);
    EXPECT_FALSE(to_json(*r.spec)["phases"][1].contains("keys"));
}

TEST(PhaseLoadSpec, ANewKeyCountLeavesTheSectionsGaussianCentre) {
    json j = hot_then_cold();
    j["cache"]["keys"] = {{"count", 1000}, {"distribution", "gaussian"}, {"mean", 900}};
    const auto r = parse_spec(j);
    ASSERT_TRUE(r) << r.error_text();
    const CacheLoad cold = phase_load(*r.spec->cache, r.spec->phases[1]);
    EXPECT_FALSE(cold.keys.mean);
    EXPECT_EQ(cold.keys.distribution, KeyDistribution::gaussian);
    const auto again = parse_spec(to_json(*r.spec));
    ASSERT_TRUE(again) << again.error_text();
    EXPECT_EQ(phase_load(*again.spec->cache, again.spec->phases[1]), cold);
}

TEST(PhaseLoadSpec, BadOverridesNameThePhaseAndKey) {
    const auto refused = [](const std::function<void(json&)>& edit, const std::string& text) {
        json j = hot_then_cold();
        edit(j);
        const auto errors = errors_of(j);
        return std::find(errors.begin(), errors.end(), text) != errors.end();
    };
    EXPECT_TRUE(refused([](json& j) { j["phases"][1]["key_count"] = 5; },
                        "phases[1].key_count: unknown key"));
    EXPECT_TRUE(refused([](json& j) { j["phases"][1]["keys"]["cnt"] = 5; },
                        "phases[1].keys.cnt: unknown key"));
    EXPECT_TRUE(refused([](json& j) { j["phases"][1]["keys"]["count"] = 0; },
                        "phases[1].keys.count: must be between 1 and 9223372036854775807, got 0"));
    EXPECT_TRUE(refused([](json& j) { j["phases"][1]["keys"] = 7; },
                        R"(phases[1].keys: expected an object such as {"count": 1000000})"));
    EXPECT_TRUE(refused(
        [](json& j) {
            j["phases"][0]["keys"] = {{"prefix", "a b"}};
        },
        "phases[0].keys.prefix: memcached keys cannot contain whitespace"));
    EXPECT_TRUE(refused(
        [](json& j) {
            j["phases"][1]["value_size"] = {{"min", 500}, {"max", 100}};
        },
        "phases[1].value_size: min 500 > max 100"));
    EXPECT_TRUE(refused(
        [](json& j) { j["phases"][1]["workload"] = "get-all"; },
        R"(phases[1].workload: "get-all" is not one of "cache-aside", "ratio", "get-only", "set-only")"));
    EXPECT_TRUE(refused(
        [](json& j) {
            j["phases"][1]["workload"] = "ratio";
            j["phases"][1]["get_ratio"] = 0;
            j["phases"][1]["set_ratio"] = 0;
        },
        "phases[1].set_ratio: get_ratio and set_ratio cannot both be 0"));
    EXPECT_TRUE(refused(
        [](json& j) {
            j["cache"]["workload"] = "get-only";
            j["cache"]["multiget"] = 10;
            j["phases"][1]["workload"] = "cache-aside";
        },
        "phases[1].workload: batches of gets (cache.multiget) need \"get-only\" or \"ratio\" "
        "(cache-aside sets each missed key, which a batch does not tell)"));
    EXPECT_TRUE(refused(
        [](json& j) {
            j["cache"]["keys"] = {{"distribution", "gaussian"}, {"mean", 10}};
            j["phases"][1]["keys"] = {{"distribution", "uniform"}, {"stddev", 3}};
        },
        R"(phases[1].keys.distribution: mean and stddev are for the "gaussian" distribution)"));
}

TEST(PhaseLoadSpec, OnlyACacheRunsPhaseHasAWorkload) {
    const json http = json::parse(R"({
      "kind": "http", "phases": [{"duration_s": 1, "concurrency": 1, "keys": {"count": 5}}],
      "http": {"targets": [{"url": "http://127.0.0.1:8080/"}]}})");
    const auto errors = errors_of(http);
    EXPECT_NE(std::find(errors.begin(), errors.end(), "phases[0].keys: is for a cache run's phase"),
              errors.end());
}

}  // namespace
}  // namespace perflab
