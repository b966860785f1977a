// SPDX-License-Identifier: MIT
#include "http/target_picker.h"

#include <gtest/gtest.h>

#include <string>

namespace perflab {
namespace {

std::string picks(TargetPicker& p, int n) {
    std::string out;
    for (int i = 0; i < n; ++i)
        out += char('a' + p.next());
    return out;
}

TEST(TargetPicker, EqualWeightsAreRoundRobin) {
    TargetPicker p({1, 1, 1});
    EXPECT_EQ(picks(p, 7), "abcabca");
}

// nginx's documented example of its smooth weighted round-robin: 5, 1, 1.
TEST(TargetPicker, WeightsAreSpreadOutNotBursts) {
    TargetPicker p({5, 1, 1});
    EXPECT_EQ(picks(p, 14), "aabacaaaabacaa");
}

}  // namespace
}  // namespace perflab
