// SPDX-License-Identifier: MIT
// The comparison's statistics against known distributions: how often the 95% interval of
// the difference between two samples of the same distribution holds 0 (coverage), and how
// often a 10% shift is found (power), at the size of a 60 s run with 1 s ticks.
#include "model/compare_stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

namespace perflab {
namespace {

constexpr int kTrials = 400;
constexpr int kTicks = 60;

// One run: 1 s ticks of about `rate` ops, their latencies log-normal around `median_us`.
std::vector<IntervalSample> run(std::mt19937_64& rng, double rate, double median_us) {
    std::normal_distribution<double> ops(rate, rate * 0.03);
    std::lognormal_distribution<double> latency(std::log(median_us), 0.3);
    std::vector<IntervalSample> ticks;
    for (int i = 0; i < kTicks; ++i) {
        IntervalSample s;
        s.t_ms = (i + 1) * 1000;
        s.interval_ms = 1000;
        auto& get = s.ops["get"];
        get.count = uint64_t(std::max(0.0, std::round(ops(rng))));
        // A sample of each tick's latencies: the histogram's shape, not its every op.
        for (int k = 0; k < 100; ++k)
            get.latency.record(int64_t(latency(rng)));
        get.count = std::max<uint64_t>(get.count, 100);
        ticks.push_back(std::move(s));
    }
    return ticks;
}

const DeltaEstimate& find(const std::vector<DeltaEstimate>& all, const std::string& name) {
    for (const auto& e : all)
        if (e.figure.name == name) return e;
    throw std::runtime_error("no figure " + name);
}

struct Rates {
    int covered = 0;     // the interval holds the true delta
    int detected = 0;    // a verdict other than `same`
    int wrong_side = 0;  // the verdict names the wrong direction
};

// kTrials comparisons of run A (1000/s, median 1 ms) with run B; per figure, how often its
// interval held `true_delta` and how often it gave a verdict.
std::map<std::string, Rates> trials(double rate_b, double median_b,
                                    const std::map<std::string, double>& true_delta) {
    std::mt19937_64 rng(20261201);
    StatOptions o;
    o.threshold_pct = 0;  // the interval alone decides
    std::map<std::string, Rates> out;
    for (int t = 0; t < kTrials; ++t) {
        o.seed = uint64_t(t) + 1;
        const auto a = run(rng, 1000, 1000);
        const auto b = run(rng, rate_b, median_b);
        const auto all = compare_ticks(RunKind::cache, {a}, {b}, o);
        for (const auto& [figure, delta] : true_delta) {
            const auto& e = find(all, figure);
            Rates& r = out[figure];
            r.covered += e.lo <= delta && delta <= e.hi;
            if (e.verdict == Verdict::same) continue;
            ++r.detected;
            r.wrong_side += (delta > 0) != (e.delta > 0);
        }
    }
    return out;
}

TEST(CompareStats, TheIntervalOfNoDifferenceHoldsZeroAt95Percent) {
    const auto rates = trials(1000, 1000, {{"throughput", 0}, {"p50_us", 0}, {"p99_us", 0}});
    for (const auto& [figure, r] : rates)
        EXPECT_GE(r.covered, kTrials * 93 / 100) << figure;
}

TEST(CompareStats, ATenPercentShiftIsFoundNineTimesInTen) {
    const auto faster = trials(1100, 1000, {{"throughput", 10}});
    EXPECT_GE(faster.at("throughput").detected, kTrials * 90 / 100);
    EXPECT_EQ(faster.at("throughput").wrong_side, 0);
    const auto slower = trials(1000, 1100, {{"p50_us", 10}});
    EXPECT_GE(slower.at("p50_us").detected, kTrials * 90 / 100);
    EXPECT_EQ(slower.at("p50_us").wrong_side, 0);
}

TEST(CompareStats, VerdictsFollowTheDirectionThatIsBetter) {
    std::mt19937_64 rng(7);
    const auto a = run(rng, 1000, 1000);
    const auto slow = run(rng, 700, 2000);
    const auto all = compare_ticks(RunKind::cache, {a}, {slow});
    EXPECT_EQ(find(all, "throughput").verdict, Verdict::worse);
    EXPECT_EQ(find(all, "p50_us").verdict, Verdict::worse);
    EXPECT_LT(find(all, "throughput").hi, 0);
    EXPECT_GT(find(all, "p50_us").lo, 0);
    const auto back = compare_ticks(RunKind::cache, {slow}, {a});
    EXPECT_EQ(find(back, "throughput").verdict, Verdict::better);
    EXPECT_EQ(find(back, "p50_us").verdict, Verdict::better);
}

// A real 0.5% change is no regression: under the practical threshold it is `same`.
TEST(CompareStats, ASmallRealChangeIsSameUnderTheThreshold) {
    std::mt19937_64 rng(11);
    std::vector<IntervalSample> a, b;
    for (int i = 0; i < kTicks; ++i) {
        IntervalSample s;
        s.interval_ms = 1000;
        s.ops["get"].count = 10000;
        s.ops["get"].latency.record(1000);
        a.push_back(s);
        s.ops["get"].count = 10050;
        b.push_back(s);
    }
    StatOptions o;
    o.threshold_pct = 0;
    EXPECT_EQ(find(compare_ticks(RunKind::cache, {a}, {b}, o), "throughput").verdict,
              Verdict::better);
    o.threshold_pct = 5;
    EXPECT_EQ(find(compare_ticks(RunKind::cache, {a}, {b}, o), "throughput").verdict,
              Verdict::same);
}

// An hour of 100 ms ticks is resampled in groups: the figures stay those of all the ticks,
// and two runs of one distribution are the same (their difference is far under 5%).
TEST(CompareStats, ALongRunIsJudgedOverAllItsTicks) {
    std::mt19937_64 rng(5);
    std::normal_distribution<double> ops(100, 5);
    std::vector<IntervalSample> a, b;
    double ok_a = 0, seconds_a = 0;
    for (int i = 0; i < 36'000; ++i) {
        for (auto* run : {&a, &b}) {
            IntervalSample s;
            s.interval_ms = 100;
            auto& get = s.ops["get"];
            get.count = uint64_t(std::max(1.0, std::round(ops(rng))));
            get.errors = i % 1000 == 0;
            get.latency.record(900 + i % 200);
            run->push_back(std::move(s));
        }
        ok_a += double(a.back().total_ops() - a.back().total_errors());
        seconds_a += 0.1;
    }
    StatOptions o;
    o.resamples = 200;
    const auto all = compare_ticks(RunKind::cache, {a}, {b}, o);
    EXPECT_NEAR(find(all, "throughput").a, ok_a / seconds_a, 1e-6 * ok_a / seconds_a);
    EXPECT_EQ(find(all, "throughput").verdict, Verdict::same);
    EXPECT_EQ(find(all, "p50_us").verdict, Verdict::same);
    // The interval is one of groups, not of nothing: it has width.
    EXPECT_LT(find(all, "throughput").lo, find(all, "throughput").hi);
}

// An open model's rate is the schedule's: constant, or nearly (a part in 10⁹ from rounding),
// and a constant series has no correlation to draw blocks for, however its rounding repeats.
TEST(CompareStats, AConstantRateAsksForNoBlocks) {
    std::mt19937_64 rng(17);
    std::lognormal_distribution<double> latency(std::log(1000), 0.3);
    std::vector<IntervalSample> exact, rounded;
    for (int i = 0; i < kTicks; ++i) {
        IntervalSample s;
        s.interval_ms = 250;
        auto& get = s.ops["get"];
        for (int k = 0; k < 100; ++k)
            get.latency.record(int64_t(latency(rng)));
        get.count = 75;
        exact.push_back(s);
        // A step of one op in 10⁹ halfway: perfectly correlated, and nothing.
        get.count = 1'000'000'000 + (i >= kTicks / 2);
        rounded.push_back(s);
    }
    EXPECT_EQ(block_length(exact), 1u);
    EXPECT_EQ(block_length(rounded), 1u);
}

// Latency that lasts over ticks asks for blocks even when the rate is the schedule's: with a
// log level following AR(1) φ = 0.8 the optimal block for 60 ticks is 12 (Politis & White);
// independent ticks are drawn one by one.
TEST(CompareStats, LastingLatencyAsksForLongBlocksWhateverTheRate) {
    std::mt19937_64 rng(23);
    std::normal_distribution<double> normal(0, 1);
    const auto open_run = [&](double phi) {
        std::vector<IntervalSample> ticks;
        double y = normal(rng);
        for (int i = 0; i < kTicks; ++i) {
            y = phi * y + std::sqrt(1 - phi * phi) * normal(rng);
            IntervalSample s;
            s.interval_ms = 1000;
            auto& get = s.ops["get"];
            get.count = 300;
            for (int k = 0; k < 300; ++k)
                get.latency.record(int64_t(1000 * std::exp(0.15 * y + 0.5 * normal(rng))));
            ticks.push_back(std::move(s));
        }
        return ticks;
    };
    double lasting = 0, independent = 0;
    constexpr int kRuns = 20;
    for (int r = 0; r < kRuns; ++r) {
        const size_t block = block_length(open_run(0.8));
        EXPECT_GE(block, 6u);
        EXPECT_LE(block, 20u);  // n/3
        lasting += double(block) / kRuns;
        independent += double(block_length(open_run(0))) / kRuns;
    }
    EXPECT_GE(lasting, 9);
    EXPECT_LE(independent, 1.5);
}

TEST(CompareStats, FewTicksGiveNoVerdict) {
    std::mt19937_64 rng(3);
    auto a = run(rng, 1000, 1000);
    a.resize(9);
    const auto b = run(rng, 2000, 1000);
    for (const auto& e : compare_ticks(RunKind::cache, {a}, {b}))
        EXPECT_EQ(e.verdict, Verdict::too_few_ticks) << e.figure.name;
}

}  // namespace
}  // namespace perflab
