// SPDX-License-Identifier: MIT
#include "cache/key_chooser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "cache/zipf.h"

namespace perflab {
namespace {

TEST(KeyChooser, FormatsPrefixAndNumber) {
    KeySpace space;
    space.prefix = "mcache:";
    space.count = 10;
    KeyChooser keys(space, 1);
    EXPECT_EQ(keys.format(0), "mcache:0");
    EXPECT_EQ(keys.format(18446744073709551615ULL), "mcache:18446744073709551615");
}

TEST(KeyChooser, UniformCoversTheSpaceEvenly) {
    KeySpace space;
    space.count = 10;
    KeyChooser keys(space, 2);
    std::map<uint64_t, int> seen;
    for (int i = 0; i < 100'000; ++i)
        ++seen[keys.draw()];
    ASSERT_EQ(seen.size(), 10u);
    for (const auto& [k, n] : seen)
        EXPECT_NEAR(n, 10'000, 500) << k;
}

TEST(KeyChooser, SequentialWalksTheSpaceAndWrapsAround) {
    KeySpace space;
    space.count = 5;
    space.distribution = KeyDistribution::sequential;
    KeyChooser keys(space, 3);
    std::vector<uint64_t> drawn;
    for (int i = 0; i < 12; ++i)
        drawn.push_back(keys.draw());
    EXPECT_EQ(drawn, (std::vector<uint64_t>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1}));
}

// Pearson's chi-square of counts in bins against the expected shares; the 0.1% critical value
// for 19 degrees of freedom is 43.82 (any statistics table).
double chi_square(const std::vector<double>& seen, const std::vector<double>& expected) {
    double chi = 0;
    for (size_t i = 0; i < seen.size(); ++i)
        chi += (seen[i] - expected[i]) * (seen[i] - expected[i]) / expected[i];
    return chi;
}

// 20 bins of 500 keys over a space of 10 000 around a mean of 4 000 with a spread of 1 500:
// each bin's share is the normal law's mass over it, renormalised to the space (draws outside
// it are drawn again).
TEST(KeyChooser, GaussianFollowsTheNormalLaw) {
    KeySpace space;
    space.count = 10'000;
    space.distribution = KeyDistribution::gaussian;
    space.mean = 4'000;
    space.stddev = 1'500;
    KeyChooser keys(space, 5);
    const int draws = 200'000, bins = 20;
    std::vector<double> seen(bins, 0);
    for (int i = 0; i < draws; ++i) {
        const uint64_t k = keys.draw();
        ASSERT_LT(k, space.count);
        seen[k / 500] += 1;
    }
    const auto cdf = [](double x) {
        return 0.5 * std::erfc(-(x - 4'000) / (1'500 * std::sqrt(2)));
    };
    const double inside = cdf(10'000) - cdf(0);
    std::vector<double> expected(bins);
    for (int b = 0; b < bins; ++b)
        expected[b] = draws * (cdf((b + 1) * 500.0) - cdf(b * 500.0)) / inside;
    EXPECT_LT(chi_square(seen, expected), 43.82);
    // The same keys with a uniform chooser are far from it: the test tells the two apart.
    KeySpace flat = space;
    flat.distribution = KeyDistribution::uniform;
    KeyChooser uniform(flat, 5);
    std::vector<double> flat_seen(bins, 0);
    for (int i = 0; i < draws; ++i)
        flat_seen[uniform.draw() / 500] += 1;
    EXPECT_GT(chi_square(flat_seen, expected), 1000);
}

// Keys 0..18 one bin each, the rest of 1 000 keys one bin: shares from the power law itself.
TEST(KeyChooser, ZipfFollowsThePowerLaw) {
    KeySpace space;
    space.count = 1'000;
    space.distribution = KeyDistribution::zipf;
    space.zipf_s = 0.99;
    KeyChooser keys(space, 6);
    const int draws = 200'000, bins = 20;
    std::vector<double> seen(bins, 0);
    for (int i = 0; i < draws; ++i)
        seen[std::min<uint64_t>(keys.draw(), bins - 1)] += 1;
    double norm = 0;
    for (int k = 1; k <= 1'000; ++k)
        norm += std::pow(double(k), -0.99);
    std::vector<double> expected(bins, 0);
    for (int k = 1; k <= 1'000; ++k)
        expected[std::min(k - 1, bins - 1)] += draws * std::pow(double(k), -0.99) / norm;
    EXPECT_LT(chi_square(seen, expected), 43.82);
}

TEST(Zipf, FrequenciesFollowThePowerLaw) {
    const uint64_t n = 1000;
    const double s = 0.99;
    ZipfSampler zipf(n, s);
    Rng rng(3);
    std::map<uint64_t, int> seen;
    const int draws = 400'000;
    for (int i = 0; i < draws; ++i) {
        const uint64_t k = zipf.sample(rng);
        ASSERT_GE(k, 1u);
        ASSERT_LE(k, n);
        ++seen[k];
    }
    double norm = 0;
    for (uint64_t k = 1; k <= n; ++k)
        norm += std::pow(double(k), -s);
    for (uint64_t k : {1, 2, 10, 100}) {
        const double expected = draws * std::pow(double(k), -s) / norm;
        EXPECT_NEAR(seen[k], expected, expected * 0.05 + 20) << "rank " << k;
    }
}

TEST(Zipf, WorksForHugeKeySpaces) {
    ZipfSampler zipf(10'000'000'000ULL, 0.99);
    Rng rng(4);
    uint64_t max = 0;
    for (int i = 0; i < 100'000; ++i)
        max = std::max(max, zipf.sample(rng));
    EXPECT_LE(max, 10'000'000'000ULL);
    EXPECT_GT(max, 1'000'000u);  // the tail is reached
}

}  // namespace
}  // namespace perflab
