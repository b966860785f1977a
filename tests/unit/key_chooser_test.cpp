// SPDX-License-Identifier: MIT
#include "cache/key_chooser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

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
