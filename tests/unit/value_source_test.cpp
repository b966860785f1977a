// SPDX-License-Identifier: MIT
#include "cache/value_source.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <map>
#include <string>

namespace perflab {
namespace {

// zlib's compressed size over the original's.
double compressed_share(std::string_view bytes) {
    uLongf size = compressBound(uLong(bytes.size()));
    std::string out(size, '\0');
    EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                        reinterpret_cast<const Bytef*>(bytes.data()), uLong(bytes.size()), 6),
              Z_OK);
    return double(size) / double(bytes.size());
}

// [[128, 70], [4096, 25], [51200, 5]] over 100 000 values: each size's share within 1% of its
// weight; nothing else drawn.
TEST(ValueSource, WeightedSizesFollowTheirWeights) {
    ValueSize size;
    size.weighted = {{128, 70}, {4096, 25}, {51200, 5}};
    size.min = 128;
    size.max = 51200;
    ValueSource values(size, 7);
    std::map<size_t, int> seen;
    const int draws = 100'000;
    for (int i = 0; i < draws; ++i)
        ++seen[values.next().size()];
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_NEAR(seen[128], 0.70 * draws, 0.01 * draws);
    EXPECT_NEAR(seen[4096], 0.25 * draws, 0.01 * draws);
    EXPECT_NEAR(seen[51200], 0.05 * draws, 0.01 * draws);
}

TEST(ValueSource, RandomBytesDoNotCompressAndTextDoes) {
    ValueSize size;
    size.min = size.max = 50'000;
    size.random_bytes = true;
    ValueSource random(size, 8);
    EXPECT_GT(compressed_share(random.next()), 0.99);
    size.random_bytes = false;
    ValueSource text(size, 8);
    EXPECT_LT(compressed_share(text.next()), 0.05);
}

}  // namespace
}  // namespace perflab
