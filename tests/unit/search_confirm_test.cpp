// SPDX-License-Identifier: MIT
// The closing confirmation of a max-rate search: its answer held for confirm_s, stepped down
// by the precision until a hold passes, against a simulated server.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "model/rate_search.h"
#include "model/run_plan.h"

namespace perflab {
namespace {

SearchSpec search(double from, double to) {
    SearchSpec s;
    s.rate_from = from;
    s.rate_to = to;
    s.step_s = 2;
    return s;
}

// A server that meets the objective for a step up to `step_capacity` ops/s, and for a hold
// only up to `hold_capacity`: a heap that fills slower than a step but faster than a hold.
struct Oracle {
    double step_capacity;
    double hold_capacity;
    std::vector<double> rates = {};
    std::vector<bool> holds = {};

    void run(RateSearch& r) {
        while (!r.done() && rates.size() < 100) {
            rates.push_back(r.rate());
            holds.push_back(r.holding());
            r.record(r.rate() <= (r.holding() ? hold_capacity : step_capacity));
        }
    }
};

TEST(SearchConfirm, AnAnswerThatHoldsIsConfirmed) {
    RateSearch r(search(100, 20000));
    Oracle o{410, 410};
    o.run(r);
    const std::vector<double> expected = {100, 200, 400, 800, 600, 500, 450, 425, 413, 400};
    EXPECT_EQ(o.rates, expected);
    EXPECT_TRUE(o.holds.back());
    EXPECT_EQ(std::count(o.holds.begin(), o.holds.end(), true), 1);
    EXPECT_EQ(r.holds(), o.holds);
    EXPECT_TRUE(r.confirmed());
    EXPECT_EQ(*r.max_rate(), 400);
    EXPECT_EQ(*r.first_failing_rate(), 413);
}

TEST(SearchConfirm, AHoldThatFailsStepsDownByThePrecisionUntilOnePasses) {
    RateSearch r(search(100, 20000));
    Oracle o{410, 370};
    o.run(r);
    // 400 passed its step but not its hold; 380 (5% less) neither; 361 held.
    const std::vector<double> holds_at = {400, 380, 361};
    ASSERT_GE(o.rates.size(), holds_at.size());
    EXPECT_EQ(std::vector<double>(o.rates.end() - 3, o.rates.end()), holds_at);
    EXPECT_TRUE(r.done());
    EXPECT_TRUE(r.confirmed());
    EXPECT_EQ(*r.max_rate(), 361);
    // The lowest rate seen to fail is the hold's.
    EXPECT_EQ(*r.first_failing_rate(), 380);
}

TEST(SearchConfirm, NoHoldPassingLeavesNoMaxRate) {
    RateSearch r(search(100, 20000));
    Oracle o{410, 10};
    o.run(r);
    EXPECT_TRUE(r.done());
    EXPECT_FALSE(r.confirmed());
    EXPECT_FALSE(r.max_rate());
    EXPECT_EQ(std::count(o.holds.begin(), o.holds.end(), true), RateSearch::kMaxHolds);
    EXPECT_EQ(*r.first_failing_rate(), o.rates.back());
}

TEST(SearchConfirm, NothingPassingHasNothingToHold) {
    RateSearch r(search(100, 20000));
    Oracle o{50, 50};
    o.run(r);
    EXPECT_EQ(o.rates, std::vector<double>{100});
    EXPECT_FALSE(r.confirmed());
}

TEST(SearchConfirm, EveryStepPassingHoldsRateTo) {
    RateSearch r(search(100, 300));
    Oracle o{1e9, 1e9};
    o.run(r);
    EXPECT_EQ(o.rates, (std::vector<double>{100, 200, 300, 300}));
    EXPECT_TRUE(r.confirmed());
    EXPECT_EQ(*r.max_rate(), 300);
}

TEST(SearchConfirm, AHoldLastsConfirmSOrThreeSteps) {
    auto spec = search(100, 300);
    EXPECT_EQ(confirm_seconds(spec), 6);
    spec.confirm_s = 10;
    EXPECT_EQ(confirm_seconds(spec), 10);
    RateSearch r(spec);
    EXPECT_EQ(r.duration_s(), 2);
    r.record(true);
    r.record(true);
    r.record(true);
    ASSERT_TRUE(r.holding());
    EXPECT_EQ(r.duration_s(), 10);
    EXPECT_EQ(search_step(spec, r.rate(), r.duration_s()).duration_s, 10);
}

TEST(SearchConfirm, ConfirmSZeroEndsWithTheBisection) {
    auto spec = search(100, 20000);
    spec.confirm_s = 0;
    RateSearch r(spec);
    Oracle o{410, 0};
    o.run(r);
    EXPECT_EQ(std::count(o.holds.begin(), o.holds.end(), true), 0);
    EXPECT_EQ(*r.max_rate(), 400);
    EXPECT_FALSE(r.confirmed());
}

// The engine's phases are allotted before the search starts: no server may need more.
TEST(SearchConfirm, NeverTakesMoreStepsThanAllotted) {
    for (const double precision : {0.2, 0.05, 0.01}) {
        auto spec = search(7, 50000);
        spec.precision = precision;
        for (double capacity = 1; capacity < 60000; capacity *= 1.37) {
            RateSearch r(spec);
            Oracle o{capacity, capacity / 3};
            o.run(r);
            EXPECT_TRUE(r.done());
            EXPECT_LE(int(o.rates.size()), RateSearch::max_steps(spec))
                << "capacity " << capacity << " precision " << precision;
            if (r.max_rate()) {
                EXPECT_TRUE(r.confirmed());
                EXPECT_LE(*r.max_rate(), capacity / 3);
            }
        }
    }
}

nlohmann::json search_spec() {
    return {{"kind", "http"},
            {"http", {{"targets", {{{"url", "http://127.0.0.1:1/"}}}}}},
            {"slo", {{"latency_ms", {{"p99", 100}}}}},
            {"search", {{"rate_from", 100}, {"rate_to", 1000}, {"step_s", 2}}}};
}

bool has_error(const SpecResult& r, const std::string& path) {
    return std::any_of(r.errors.begin(), r.errors.end(),
                       [&](const SpecError& e) { return e.path == path; });
}

TEST(SearchConfirm, SettleAndConfirmKeysRoundTripAndBadValuesNameTheirField) {
    auto j = search_spec();
    j["search"]["settle_s"] = 5;
    j["search"]["confirm_s"] = 0;
    const auto parsed = parse_spec(j);
    ASSERT_TRUE(parsed) << parsed.error_text();
    EXPECT_EQ(parsed.spec->search->settle_s, 5);
    EXPECT_EQ(parsed.spec->search->confirm_s, 0.0);
    const auto again = parse_spec(to_json(*parsed.spec));
    ASSERT_TRUE(again) << again.error_text();
    EXPECT_EQ(again.spec->search->settle_s, 5);
    EXPECT_EQ(again.spec->search->confirm_s, 0.0);
    // Unset, confirm_s stays unset: it follows step_s.
    const auto defaults = parse_spec(search_spec());
    ASSERT_TRUE(defaults);
    EXPECT_EQ(defaults.spec->search->settle_s, 0);
    EXPECT_FALSE(defaults.spec->search->confirm_s);
    EXPECT_FALSE(to_json(*defaults.spec)["search"].contains("confirm_s"));
    for (const char* key : {"settle_s", "confirm_s"}) {
        auto negative = search_spec();
        negative["search"][key] = -1;
        EXPECT_TRUE(has_error(parse_spec(negative), std::string("search.") + key)) << key;
        auto text = search_spec();
        text["search"][key] = "ten";
        EXPECT_TRUE(has_error(parse_spec(text), std::string("search.") + key)) << key;
    }
}

TEST(SearchConfirm, TheResultTellsHoldsAndMarginalSteps) {
    SearchResult r;
    r.max_rate = 400;
    r.first_failing_rate = 413;
    r.finished = true;
    r.confirmed = true;
    SearchStep step;
    step.phase = 7;
    step.rate = 400;
    step.throughput = 399;
    step.passed = true;
    step.old_gen = OldGenSpan{40, 88, 6};
    step.marginal = true;
    SearchStep hold = step;
    hold.phase = 9;
    hold.confirm = true;
    hold.marginal = false;
    hold.old_gen = OldGenSpan{30, 35, 0.5};
    r.steps = {step, hold};
    const auto j = to_json(r);
    EXPECT_EQ(j["confirmed"], true);
    EXPECT_EQ(j["steps"][0]["marginal"], true);
    EXPECT_EQ(j["steps"][0]["confirm"], false);
    EXPECT_EQ(j["steps"][0]["old_gen_start_pct"], 40.0);
    EXPECT_EQ(j["steps"][0]["old_gen_end_pct"], 88.0);
    EXPECT_EQ(j["steps"][0]["old_gen_growth_pct_per_s"], 6.0);
    EXPECT_EQ(j["steps"][1]["confirm"], true);
    const auto back = search_result_from_json(j);
    ASSERT_TRUE(back);
    EXPECT_EQ(to_json(*back), j);
    const std::string text = search_text(r);
    EXPECT_NE(text.find("confirmed by a hold"), std::string::npos) << text;
    EXPECT_NE(text.find("marginal: the old generation"), std::string::npos) << text;
    EXPECT_NE(text.find("40->88% +6.0/s"), std::string::npos) << text;
    EXPECT_NE(text.find("pass (marginal)"), std::string::npos) << text;
    EXPECT_NE(text.find("hold pass"), std::string::npos) << text;
}

}  // namespace
}  // namespace perflab
