// SPDX-License-Identifier: MIT
// The summary `run` prints and `show` recomputes says each phase's own workload: a line per
// phase in text, a "workload" object per phase in JSON; a run without any reads as before.
#include "model/phase_load_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/summary_report.h"

namespace perflab {
namespace {

RunSpec hot_then_cold() {
    const auto parsed = parse_spec(nlohmann::json::parse(R"({
      "kind": "cache",
      "phases": [{"duration_s": 10, "concurrency": 4},
                 {"duration_s": 10, "concurrency": 4, "keys": {"count": 10000000000}}],
      "cache": {"servers": ["127.0.0.1:11211"], "keys": {"count": 1000, "prefix": "k:"},
                "value_size": {"min": 16, "max": 64}}})"));
    EXPECT_TRUE(parsed) << parsed.error_text();
    return *parsed.spec;
}

RunSummary two_phases(const RunSpec& spec) {
    SummaryBuilder builder(RunKind::cache);
    for (int phase = 0; phase < 2; ++phase) {
        IntervalSample s;
        s.phase = phase;
        s.t_ms = 1000 * (phase + 1);
        s.interval_ms = 1000;
        s.hits = phase == 0 ? 90 : 1;
        s.misses = phase == 0 ? 10 : 99;
        builder.add(s);
    }
    RunSummary summary = builder.finish(RunStatus::completed);
    summary.phase_loads = phase_loads(spec);
    return summary;
}

TEST(PhaseLoadReport, EachPhaseSaysItsWorkload) {
    const RunSummary s = two_phases(hot_then_cold());
    ASSERT_EQ(s.phase_loads.size(), 2u);
    const std::string text = summary_text(s);
    EXPECT_NE(text.find("Phase 1 (1.00 s): cache-aside, 1000 keys k:N uniform, values 16..64 B\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("Phase 2 (1.00 s): cache-aside, 10000000000 keys k:N uniform, values "
                        "16..64 B\n"),
              std::string::npos)
        << text;
    const nlohmann::json j = summary_json(s);
    EXPECT_EQ(j["phases"][0]["workload"]["keys"]["count"], 1000);
    EXPECT_EQ(j["phases"][1]["workload"]["keys"]["count"], 10'000'000'000ull);
    EXPECT_EQ(j["phases"][1]["workload"]["keys"]["prefix"], "k:");
    EXPECT_EQ(j["phases"][1]["workload"]["workload"], "cache-aside");
    EXPECT_EQ(j["phases"][1]["workload"]["value_size"]["max"], 64);
    EXPECT_FALSE(j.contains("workload"));
}

TEST(PhaseLoadReport, ARunWithoutPhaseWorkloadsReadsAsBefore) {
    RunSpec spec = hot_then_cold();
    spec.phases[1].cache.reset();
    EXPECT_TRUE(phase_loads(spec).empty());
    const RunSummary s = two_phases(spec);
    EXPECT_NE(summary_text(s).find("Phase 2 (1.00 s)\n"), std::string::npos);
    EXPECT_FALSE(summary_json(s)["phases"][1].contains("workload"));
}

TEST(PhaseLoadReport, TextNamesRatiosZipfWeightsAndRandomBytes) {
    CacheLoad l;
    l.workload = CacheWorkload::ratio;
    l.get_ratio = 3;
    l.set_ratio = 1;
    l.keys.count = 500;
    l.keys.distribution = KeyDistribution::zipf;
    l.value_size.weighted = {{128, 3}, {4096, 1}};
    l.value_size.random_bytes = true;
    EXPECT_EQ(cache_load_text(l), "ratio 3:1, 500 keys key:N zipf 0.99, values 128/4096 B random");
    const nlohmann::json j = cache_load_json(l);
    EXPECT_EQ(j["get_ratio"], 3);
    EXPECT_EQ(j["value_size"]["weights"][1][0], 4096);
    EXPECT_EQ(j["value_size"]["bytes"], "random");
}

}  // namespace
}  // namespace perflab
