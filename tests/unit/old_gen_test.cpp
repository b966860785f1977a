// SPDX-License-Identifier: MIT
#include "model/old_gen.h"

#include <gtest/gtest.h>

namespace perflab {
namespace {

ProbeSample jvm(int64_t t_ms, double old_pct, const std::string& source = "jvm 1") {
    ProbeSample s;
    s.t_ms = t_ms;
    s.kind = "jvm";
    s.source = source;
    s.values = {{"old_pct", old_pct}};
    return s;
}

TEST(OldGen, ASpanRunsFromTheSampleAtItsStartToTheLastBeforeItsEnd) {
    OldGenTrack t;
    for (int i = 0; i <= 10; ++i)
        t.add(jvm(i * 1000, 20 + 5 * i));
    const auto s = t.span(2000, 6500);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->start_pct, 30);
    EXPECT_EQ(s->end_pct, 50);
    EXPECT_DOUBLE_EQ(s->growth_pct_per_s, 5);
    EXPECT_FALSE(t.span(20000, 30000));
    EXPECT_FALSE(OldGenTrack().span(0, 1000));
}

TEST(OldGen, OfSeveralJvmsTheOneThatWouldFillFirstSpeaks) {
    OldGenTrack t;
    t.add(jvm(0, 10, "slow"));
    t.add(jvm(4000, 14, "slow"));
    t.add(jvm(0, 50, "fast"));
    t.add(jvm(4000, 90, "fast"));
    const auto s = t.span(0, 4000);
    ASSERT_TRUE(s);
    EXPECT_EQ(s->end_pct, 90);
}

TEST(OldGen, AStepIsMarginalWhenItsOldGenWouldFillWithinTwoSteps) {
    // 88% growing 3%/s: full in 4 s.
    EXPECT_TRUE(marginal({40, 88, 3}, 2));
    EXPECT_FALSE(marginal({40, 88, 3}, 1));
    EXPECT_FALSE(marginal({90, 60, -3}, 10));
    EXPECT_FALSE(marginal({40, 40, 0}, 10));
}

TEST(OldGen, ItStopsFallingOnceTwoSamplesAfterTheLoadDoNotFall) {
    OldGenTrack t;
    EXPECT_FALSE(t.stopped_falling(0));
    t.add(jvm(1000, 80));
    t.add(jvm(2000, 60));
    EXPECT_FALSE(t.stopped_falling(500));  // still falling
    t.add(jvm(3000, 60));
    EXPECT_TRUE(t.stopped_falling(500));
    EXPECT_FALSE(t.stopped_falling(2500));  // one sample since then is not enough
    ProbeSample gap = jvm(4000, 0);
    gap.gap = true;
    t.add(gap);
    EXPECT_TRUE(t.stopped_falling(500));
}

}  // namespace
}  // namespace perflab
