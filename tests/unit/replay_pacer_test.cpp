// SPDX-License-Identifier: MIT
// A replay's plan: which connection sends which of the file's ops, and when.
#include <gtest/gtest.h>

#include <chrono>

#include "phase_board.h"

namespace perflab {
namespace {

using std::chrono::milliseconds;

// Four ops over 4 s of recorded time, two connections.
struct TwoConnections {
    explicit TwoConnections(double speed, Phase phase) {
        file =
            ReplayFile::parse("100.0 get a\n100.5 get b\n101.0 set c 3\n104.0 get d\n", "f").file;
        plan.phase = phase;
        plan.start = Clock::time_point{} + std::chrono::hours(1);
        plan.connections = 2;
        for (int i = 0; i < 2; ++i) {
            pacer[i].replay(file.get(), speed);
            pacer[i].reset(plan, i);
        }
    }
    milliseconds due_ms(int i) const {
        return std::chrono::duration_cast<milliseconds>(pacer[i].due() - plan.start);
    }
    std::shared_ptr<const ReplayFile> file;
    PhasePlan plan;
    OpPacer pacer[2];
};

Phase closed() {
    Phase p;
    p.concurrency = 2;
    p.ops = 4;
    return p;
}

TEST(ReplayPacer, AtSpeedTwoTheScheduleTakesHalfTheFilesSpan) {
    TwoConnections c(2, closed());
    ASSERT_TRUE(c.pacer[0].open());
    EXPECT_EQ(c.pacer[0].index(), 0u);
    EXPECT_EQ(c.due_ms(0), milliseconds(0));
    EXPECT_EQ(c.pacer[1].index(), 1u);
    EXPECT_EQ(c.due_ms(1), milliseconds(250));
    c.pacer[0].advance();
    c.pacer[1].advance();
    EXPECT_EQ(c.pacer[0].index(), 2u);
    EXPECT_EQ(c.due_ms(0), milliseconds(500));
    EXPECT_EQ(c.pacer[1].index(), 3u);
    EXPECT_EQ(c.due_ms(1), milliseconds(2000));  // the last op: 4 s recorded, replayed in 2
    c.pacer[0].advance();
    c.pacer[1].advance();
    EXPECT_TRUE(c.pacer[0].exhausted());
    EXPECT_TRUE(c.pacer[1].exhausted());
}

TEST(ReplayPacer, ADurationCutsTheScheduleShort) {
    Phase p = closed();
    p.duration_s = 1;
    TwoConnections c(1, p);
    c.pacer[1].advance();  // op 3 is due at 4 s, past the phase's end
    EXPECT_TRUE(c.pacer[1].exhausted());
    EXPECT_FALSE(c.pacer[0].exhausted());
}

TEST(ReplayPacer, AtMaxSpeedTheConnectionsGoAtTheirOwnPace) {
    TwoConnections c(0, closed());
    EXPECT_FALSE(c.pacer[0].open());
    EXPECT_EQ(c.pacer[0].index(), 0u);
    EXPECT_EQ(c.pacer[1].index(), 1u);
    c.pacer[0].advance();
    EXPECT_EQ(c.pacer[0].index(), 2u);
    c.pacer[0].advance();
    EXPECT_TRUE(c.pacer[0].exhausted());
}

// Agent 1 of 2, one connection: the file's lines 1 and 3, agent 0 sending 0 and 2.
TEST(ReplayPacer, AgentsShareTheFile) {
    const auto file = ReplayFile::parse("get a\nget b\nget c\nget d\n", "f").file;
    PhasePlan plan;
    plan.phase = closed();
    plan.connections = 1;
    plan.share = 1;
    plan.shares = 2;
    OpPacer pacer;
    pacer.replay(file.get(), 0);
    pacer.reset(plan, 0);
    EXPECT_EQ(pacer.index(), 1u);
    pacer.advance();
    EXPECT_EQ(pacer.index(), 3u);
    pacer.advance();
    EXPECT_TRUE(pacer.exhausted());
}

}  // namespace
}  // namespace perflab
