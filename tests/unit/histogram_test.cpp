// SPDX-License-Identifier: MIT
#include "model/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace perflab {
namespace {

// A percentile as parts per million (99.99 -> 999'900), so the reference's rank is integer
// arithmetic with nothing to round.
struct Percentile {
    double p;
    uint64_t ppm;
};
constexpr Percentile kPercentiles[] = {{0.0, 0},        {1.0, 10'000},    {10.0, 100'000},
                                       {25.0, 250'000}, {50.0, 500'000},  {75.0, 750'000},
                                       {90.0, 900'000}, {95.0, 950'000},  {99.0, 990'000},
                                       {99.9, 999'000}, {99.99, 999'900}, {100.0, 1'000'000}};

// The reference, written out here rather than taken from the code under test: the value of
// rank ceil(p/100 * n) (at least 1) in the sorted data.
int64_t exact_percentile(std::vector<int64_t> sorted, uint64_t ppm) {
    std::sort(sorted.begin(), sorted.end());
    const uint64_t n = sorted.size();
    const uint64_t rank = std::max<uint64_t>(1, (ppm * n + 999'999) / 1'000'000);
    return sorted[rank - 1];
}

void expect_close_to_exact(const std::vector<int64_t>& values) {
    Histogram h;
    for (auto v : values)
        h.record(v);
    for (const auto [p, ppm] : kPercentiles) {
        const int64_t exact = exact_percentile(values, ppm);
        const int64_t got = h.percentile(p);
        EXPECT_LE(std::abs(double(got - exact)), double(exact) * 0.001)
            << "p" << p << " exact " << exact << " got " << got;
    }
    EXPECT_EQ(h.count(), values.size());
    EXPECT_EQ(h.min(), *std::min_element(values.begin(), values.end()));
    EXPECT_EQ(h.max(), *std::max_element(values.begin(), values.end()));
    long double sum = 0;
    for (auto v : values)
        sum += v;
    EXPECT_DOUBLE_EQ(h.mean(), double(sum / values.size()));
}

TEST(Histogram, RanksAreTheTextbookCeiling) {
    // ceil(p/100 * n), worked by hand; 99.9% of 1000 is rank 999 exactly, not 1000.
    EXPECT_EQ(Histogram::rank_for(99.9, 1000), 999u);
    EXPECT_EQ(Histogram::rank_for(99.9, 1001), 1000u);
    EXPECT_EQ(Histogram::rank_for(50, 3), 2u);
    EXPECT_EQ(Histogram::rank_for(50, 4), 2u);
    EXPECT_EQ(Histogram::rank_for(0, 10), 1u);
    EXPECT_EQ(Histogram::rank_for(100, 10), 10u);
    EXPECT_EQ(Histogram::rank_for(99.99, 100'000), 99'990u);
    EXPECT_EQ(Histogram::rank_for(1, 7), 1u);
    EXPECT_EQ(Histogram::rank_for(50, 0), 0u);
}

TEST(Histogram, SmallSetsGiveTheSortedValueAtTheRank) {
    // 10, 20, ..., 100 (bucket-exact below 2048): p50 is the 5th value, p90 the 9th, p91 the 10th.
    Histogram h;
    for (int64_t v : {70, 10, 100, 40, 20, 90, 30, 60, 50, 80})
        h.record(v);
    EXPECT_EQ(h.percentile(50), 50);
    EXPECT_EQ(h.percentile(90), 90);
    EXPECT_EQ(h.percentile(91), 100);
    EXPECT_EQ(h.percentile(0), 10);
    EXPECT_EQ(h.percentile(10), 10);
    EXPECT_EQ(h.percentile(11), 20);
}

TEST(Histogram, EmptyReportsZeros) {
    Histogram h;
    EXPECT_EQ(h.count(), 0u);
    EXPECT_EQ(h.min(), 0);
    EXPECT_EQ(h.max(), 0);
    EXPECT_EQ(h.percentile(99), 0);
    EXPECT_EQ(h.mean(), 0.0);
}

TEST(Histogram, RandomLogUniformMatchesSortedArray) {
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> exponent(0, std::log(3.6e9));
    std::vector<int64_t> values;
    for (int i = 0; i < 200'000; ++i)
        values.push_back(int64_t(std::exp(exponent(rng))));
    expect_close_to_exact(values);
}

TEST(Histogram, BimodalMatchesSortedArray) {
    std::mt19937_64 rng(7);
    std::normal_distribution<double> fast(150, 20), slow(250'000, 30'000);
    std::vector<int64_t> values;
    for (int i = 0; i < 100'000; ++i)
        values.push_back(std::max<int64_t>(1, int64_t(i % 100 < 97 ? fast(rng) : slow(rng))));
    expect_close_to_exact(values);
}

TEST(Histogram, AllEqual) {
    std::vector<int64_t> values(10'000, 123'456);
    expect_close_to_exact(values);
    Histogram h;
    for (auto v : values)
        h.record(v);
    EXPECT_EQ(h.percentile(50), 123'456);  // clamped to min/max: exact
}

TEST(Histogram, ExtremesAndClamping) {
    std::vector<int64_t> values = {0, 1, 2, 2047, 2048, 2049, Histogram::kHighest};
    expect_close_to_exact(values);
    Histogram h;
    h.record(-5);
    h.record(Histogram::kHighest * 10);
    EXPECT_EQ(h.min(), 0);
    EXPECT_EQ(h.max(), Histogram::kHighest);
}

// 10'126 lies in the 8-wide bucket [10'120, 10'127]; a maximum outside it is another unit.
TEST(Histogram, AnExactMaximumIsTakenOnlyInsideItsBucket) {
    Histogram h;
    h.record(10'120);
    h.record(500);
    h.refine_max(10'126'000);
    EXPECT_EQ(h.max(), 10'120);
    h.refine_max(10'119);
    EXPECT_EQ(h.max(), 10'120);
    h.refine_max(10'126);
    EXPECT_EQ(h.max(), 10'126);
    EXPECT_EQ(h.percentile(100), 10'126);
}

TEST(Histogram, RelativeErrorBoundAtEveryScale) {
    for (int64_t v = 1; v < Histogram::kHighest; v = v * 3 / 2 + 1) {
        Histogram h;
        h.record(v);
        h.record(Histogram::kHighest);  // so clamping to max does not hide the bucket's width
        const int64_t p = h.percentile(50);
        EXPECT_GE(p, v);
        EXPECT_LE(double(p - v), double(v) * 0.001) << v;
    }
}

TEST(Histogram, MergeEqualsRecordingEverything) {
    std::mt19937_64 rng(1);
    std::lognormal_distribution<double> d(6, 2);
    Histogram a, b, all;
    for (int i = 0; i < 50'000; ++i) {
        const auto v = int64_t(d(rng));
        (i % 3 ? a : b).record(v);
        all.record(v);
    }
    Histogram merged = a;
    merged.merge(b);
    EXPECT_EQ(merged, all);
    EXPECT_EQ(merged.percentile(99.9), all.percentile(99.9));
}

TEST(Histogram, EncodingRoundTripsExactly) {
    std::mt19937_64 rng(3);
    std::lognormal_distribution<double> d(8, 3);
    Histogram h;
    for (int i = 0; i < 100'000; ++i)
        h.record_n(int64_t(d(rng)), 1 + i % 3);
    const std::string bytes = h.encode();
    const auto back = Histogram::decode(bytes);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(*back, h);
    EXPECT_EQ(back->encode(), bytes);
    EXPECT_LT(bytes.size(), 40'000u);  // compact: far below the 186 KB of raw counters

    const auto empty = Histogram::decode(Histogram().encode());
    ASSERT_TRUE(empty.has_value());
    EXPECT_EQ(empty->count(), 0u);
}

TEST(Histogram, DecodeRejectsGarbage) {
    EXPECT_FALSE(Histogram::decode("").has_value());
    EXPECT_FALSE(Histogram::decode("nonsense").has_value());
    Histogram h;
    h.record(100);
    h.record(5000);
    std::string bytes = h.encode();
    EXPECT_FALSE(Histogram::decode(bytes.substr(0, bytes.size() - 1)).has_value());
    bytes.back() = char(0xff);
    EXPECT_FALSE(Histogram::decode(bytes).has_value());
}

// LEB128, written here rather than taken from the code under test.
void varint(std::string& out, uint64_t v) {
    for (; v >= 0x80; v >>= 7)
        out.push_back(char(v | 0x80));
    out.push_back(char(v));
}

// A first index and skips that wrap around 2^64 back onto index 100: a count of 1 at 100 µs
// that a checking decoder must not accept as a well-formed histogram.
TEST(Histogram, DecodeRejectsARunLengthThatWraps) {
    std::string bytes = {'H', 1};
    varint(bytes, 100);                                   // min
    varint(bytes, 100);                                   // max
    varint(bytes, 100);                                   // sum
    varint(bytes, uint64_t{1} << 63);                     // first index
    varint(bytes, (((uint64_t{1} << 63) - 1) << 1) | 1);  // skip 2^63 - 1
    varint(bytes, (uint64_t{101} << 1) | 1);              // skip 101: index 2^64 + 100
    varint(bytes, uint64_t{1} << 1);                      // one value there
    EXPECT_FALSE(Histogram::decode(bytes).has_value());

    std::string skip_past_end = {'H', 1};
    varint(skip_past_end, 100);
    varint(skip_past_end, 100);
    varint(skip_past_end, 100);
    varint(skip_past_end, 100);
    varint(skip_past_end, uint64_t{1} << 1);
    varint(skip_past_end, (uint64_t{1} << 40 << 1) | 1);  // far beyond the last slot
    EXPECT_FALSE(Histogram::decode(skip_past_end).has_value());
}

TEST(Histogram, ResetClearsForReuse) {
    Histogram h;
    h.record(10);
    h.record(1'000'000);
    h.reset();
    EXPECT_EQ(h, Histogram());
    h.record(42);
    EXPECT_EQ(h.percentile(100), 42);
    EXPECT_EQ(h.min(), 42);
}

}  // namespace
}  // namespace perflab
