// SPDX-License-Identifier: MIT
// One attribution of a time to a phase: phase_at (the SLO's and a search step's) and
// phase_span (the servers' figures') place every stamp alike, a stamp at a phase's start in
// the phase before.
#include "model/phase_span.h"

#include <gtest/gtest.h>

namespace perflab {
namespace {

TEST(PhaseSpan, AStampAtAPhasesStartIsThePhaseBefores) {
    const std::vector<int64_t> starts = {0, 3000, 6000};
    EXPECT_EQ(phase_at(starts, -5), 0u);
    EXPECT_EQ(phase_at(starts, 0), 0u);
    EXPECT_EQ(phase_at(starts, 1), 0u);
    EXPECT_EQ(phase_at(starts, 3000), 0u);
    EXPECT_EQ(phase_at(starts, 3001), 1u);
    EXPECT_EQ(phase_at(starts, 6000), 1u);
    EXPECT_EQ(phase_at(starts, 6001), 2u);
    EXPECT_EQ(phase_at(starts, 99999), 2u);
}

TEST(PhaseSpan, SpansAndPhaseAtAgreeOnEveryStamp) {
    RunSummary s;
    for (int i = 0; i < 3; ++i) {
        PhaseTotals p;
        p.phase = i;
        p.start_ms = i * 3000;
        p.totals.t_ms = (i + 1) * 3000;
        s.phases.push_back(p);
    }
    const std::vector<int64_t> starts = {0, 3000, 6000};
    for (int64_t t = -1000; t <= 10000; t += 250) {
        int holders = 0;
        for (size_t i = 0; i < s.phases.size(); ++i) {
            const auto span = phase_span(s, i);
            ASSERT_TRUE(span);
            if (t > span->first && t <= span->second) {
                ++holders;
                EXPECT_EQ(phase_at(starts, t), i) << t;
            }
        }
        EXPECT_EQ(holders, 1) << t;
    }
    PhaseTotals never_ran;
    never_ran.phase = 3;
    s.phases.push_back(never_ran);
    EXPECT_FALSE(phase_span(s, 3));
}

}  // namespace
}  // namespace perflab
