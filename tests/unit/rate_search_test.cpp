// SPDX-License-Identifier: MIT
#include "model/rate_search.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/run_plan.h"

namespace perflab {
namespace {

SearchSpec search(double from, double to, double precision = 0.05) {
    SearchSpec s;
    s.rate_from = from;
    s.rate_to = to;
    s.precision = precision;
    s.confirm_s = 0;  // the bisection alone: search_confirm_test.cpp holds its answer
    return s;
}

// Runs a search against a server that meets the objective up to `capacity` ops/s.
std::vector<double> steps_against(double capacity, RateSearch& r) {
    std::vector<double> rates;
    while (!r.done() && rates.size() < 100) {
        rates.push_back(r.rate());
        r.record(r.rate() <= capacity);
    }
    return rates;
}

TEST(RateSearch, DoublesThenBisectsToThePrecision) {
    const auto spec = search(100, 20000);
    RateSearch r(spec);
    const auto rates = steps_against(410, r);
    // 800 fails; then halfway between the highest pass and the lowest failure each time,
    // until 413 fails within 5% of 400.
    const std::vector<double> expected = {100, 200, 400, 800, 600, 500, 450, 425, 413};
    EXPECT_EQ(rates, expected);
    ASSERT_TRUE(r.max_rate());
    EXPECT_EQ(*r.max_rate(), 400);
    ASSERT_TRUE(r.first_failing_rate());
    EXPECT_EQ(*r.first_failing_rate(), 413);
}

TEST(RateSearch, StopsAtRateToWhenEveryStepPasses) {
    const auto spec = search(100, 300);
    RateSearch r(spec);
    const auto rates = steps_against(1e9, r);
    EXPECT_EQ(rates, (std::vector<double>{100, 200, 300}));
    EXPECT_EQ(*r.max_rate(), 300);
    EXPECT_FALSE(r.first_failing_rate());
}

TEST(RateSearch, AFirstStepThatFailsEndsItWithNoMaxRate) {
    const auto spec = search(100, 300);
    RateSearch r(spec);
    const auto rates = steps_against(50, r);
    EXPECT_EQ(rates, (std::vector<double>{100}));
    EXPECT_FALSE(r.max_rate());
    EXPECT_EQ(*r.first_failing_rate(), 100);
}

// The engine's phases are allotted before the search starts: no capacity may need more.
TEST(RateSearch, NeverTakesMoreStepsThanAllotted) {
    for (const double precision : {0.2, 0.05, 0.01}) {
        const auto spec = search(7, 50000, precision);
        for (double capacity = 1; capacity < 60000; capacity *= 1.37) {
            RateSearch r(spec);
            const auto rates = steps_against(capacity, r);
            EXPECT_TRUE(r.done());
            EXPECT_LE(int(rates.size()), RateSearch::max_steps(spec))
                << "capacity " << capacity << " precision " << precision;
            if (r.max_rate() && r.first_failing_rate()) {
                EXPECT_LE(*r.max_rate(), capacity);
                EXPECT_GT(*r.first_failing_rate(), capacity);
            }
        }
    }
}

nlohmann::json search_spec() {
    return {{"kind", "http"},
            {"http", {{"targets", {{{"url", "http://127.0.0.1:1/"}}}}}},
            {"slo", {{"latency_ms", {{"p99", 100}}}}},
            {"search", {{"rate_from", 100}, {"rate_to", 1000}, {"step_s", 2}, {"warmup_s", 1}}}};
}

TEST(RateSearch, ASpecWithASearchRoundTripsAndPlansItsPhases) {
    const auto parsed = parse_spec(search_spec());
    ASSERT_TRUE(parsed) << parsed.error_text();
    const RunSpec& spec = *parsed.spec;
    EXPECT_TRUE(spec.phases.empty());
    const auto again = parse_spec(to_json(spec));
    ASSERT_TRUE(again) << again.error_text() << to_json(spec).dump();
    EXPECT_EQ(again.spec->search->step_s, 2);
    const RunSpec plan = run_plan(spec);
    ASSERT_EQ(int(plan.phases.size()), 1 + RateSearch::max_steps(*spec.search));
    EXPECT_EQ(plan.phases[0].rate, 100);
    EXPECT_EQ(plan.phases[0].duration_s, 1);
    EXPECT_EQ(plan.phases[1].rate, 1000);
    EXPECT_EQ(first_step_phase(*spec.search), 1);
}

bool has_error(const SpecResult& r, const std::string& path) {
    for (const auto& e : r.errors)
        if (e.path == path) return true;
    return false;
}

TEST(RateSearch, ASearchWithoutAnSloOrWithPhasesIsRefusedNamingTheField) {
    auto no_slo = search_spec();
    no_slo.erase("slo");
    EXPECT_TRUE(has_error(parse_spec(no_slo), "slo"));
    auto phases = search_spec();
    phases["phases"] = {{{"rate", 10}, {"duration_s", 1}}};
    EXPECT_TRUE(has_error(parse_spec(phases), "phases"));
    auto backwards = search_spec();
    backwards["search"]["rate_to"] = 50;
    EXPECT_TRUE(has_error(parse_spec(backwards), "search.rate_to"));
    auto abort = search_spec();
    abort["slo"]["abort"] = true;
    EXPECT_TRUE(has_error(parse_spec(abort), "slo.abort"));
    auto unknown = search_spec();
    unknown["search"]["rate"] = 5;
    EXPECT_TRUE(has_error(parse_spec(unknown), "search.rate"));
}

TEST(RateSearch, AResultRoundTripsThroughJson) {
    SearchResult r;
    r.max_rate = 400;
    r.first_failing_rate = 413;
    r.finished = true;
    SloCheck c;
    c.key = "p99";
    c.name = "p99 ≤ 100 ms";
    c.scope = "phase 9";
    c.measured = 131.5;
    c.limit = 100;
    r.failed_check = c;
    SearchStep s;
    s.phase = 8;
    s.rate = 413;
    s.throughput = 409.5;
    s.p99_ms = 131.5;
    s.failed.push_back(c);
    r.steps.push_back(s);
    const auto back = search_result_from_json(to_json(r));
    ASSERT_TRUE(back);
    EXPECT_EQ(to_json(*back), to_json(r));
    EXPECT_NE(search_text(r).find("max rate 400/s; first failing 413/s (p99 ≤ 100 ms (phase 9)"),
              std::string::npos)
        << search_text(r);
}

}  // namespace
}  // namespace perflab
