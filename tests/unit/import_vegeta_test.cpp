// SPDX-License-Identifier: MIT
// vegeta's timestamps (Go's RFC 3339 with nanoseconds); epoch values from `date -u +%s`.
#include "import_vegeta.h"

#include <gtest/gtest.h>

namespace perflab {
namespace {

TEST(ImportVegeta, Rfc3339Times) {
    EXPECT_EQ(parse_rfc3339_us("1970-01-01T00:00:00Z"), 0);
    EXPECT_EQ(parse_rfc3339_us("2026-03-01T12:00:00Z"), int64_t{1'772'366'400} * 1'000'000);
    EXPECT_EQ(parse_rfc3339_us("2026-03-01T12:00:00.25Z"), int64_t{1'772'366'400'250'000});
    EXPECT_EQ(parse_rfc3339_us("2026-03-01T13:00:00.123456789+01:00"),
              int64_t{1'772'366'400'123'456});
    EXPECT_EQ(parse_rfc3339_us("2026-03-01T11:30:00-00:30"), int64_t{1'772'366'400} * 1'000'000);
    EXPECT_EQ(parse_rfc3339_us("2024-02-29T23:59:59Z"), int64_t{1'709'251'199} * 1'000'000);
    for (const char* bad :
         {"", "2026-03-01", "2026-03-01T12:00:00", "2026-02-30T12:00:00Z", "2026-03-01T24:00:00Z",
          "2026-03-01T12:00:00.Z", "2026-03-01T12:00:00+0100", "2026-03-01T12:00:00Zjunk"})
        EXPECT_FALSE(parse_rfc3339_us(bad)) << bad;
}

}  // namespace
}  // namespace perflab
