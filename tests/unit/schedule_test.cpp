// SPDX-License-Identifier: MIT
#include "model/schedule.h"

#include <gtest/gtest.h>

#include <cmath>

namespace perflab {
namespace {

TEST(OpenSchedule, ConstantRateSpreadsEvenly) {
    Phase p;
    p.rate = 500;
    p.duration_s = 10;
    OpenSchedule s(p);
    EXPECT_DOUBLE_EQ(s.due_s(0), 0);
    EXPECT_NEAR(s.due_s(1), 0.002, 1e-12);
    EXPECT_NEAR(s.due_s(500), 1.0, 1e-12);
    EXPECT_NEAR(s.due_s(4999), 9.998, 1e-9);
}

TEST(OpenSchedule, RampIntegratesTheRate) {
    Phase p;
    p.rate = 100;
    p.rate_to = 2000;
    p.duration_s = 60;
    OpenSchedule s(p);
    // Ops sent by t: 100 t + (1900 / 120) t^2; by the end 6000 + 57000 = 63000.
    EXPECT_NEAR(s.due_s(63000), 60.0, 1e-6);
    const double t = 30;
    const double sent_by_t = 100 * t + 1900.0 / 120 * t * t;
    EXPECT_NEAR(s.due_s(uint64_t(sent_by_t)), t, 1e-3);
    // Ops get closer together as the rate rises.
    EXPECT_GT(s.due_s(1) - s.due_s(0), s.due_s(60001) - s.due_s(60000));
}

TEST(OpenSchedule, DownwardRampEnds) {
    Phase p;
    p.rate = 1000;
    p.rate_to = 10;
    p.duration_s = 10;
    OpenSchedule s(p);
    const double total = 1000 * 10 + (10 - 1000) / 20.0 * 100;  // 5050
    EXPECT_NEAR(s.due_s(uint64_t(total)), 10.0, 0.05);
    EXPECT_TRUE(std::isinf(s.due_s(100000)));
}

}  // namespace
}  // namespace perflab
