// SPDX-License-Identifier: MIT
#include "model/generator_watch.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

namespace perflab {
namespace {

IntervalSample tick(uint64_t sent, uint64_t late) {
    IntervalSample s;
    s.interval_ms = 1000;
    s.sent = sent;
    s.late = late;
    return s;
}

double cpu_s() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

TEST(GeneratorWatch, OverOnePercentLateRaisesAndThreeClearTicksClear) {
    GeneratorWatch w(64);
    w.on_sample(tick(1000, 10));  // 1.0%: not over
    EXPECT_FALSE(w.limited());
    w.on_sample(tick(1000, 11));
    EXPECT_TRUE(w.limited());
    EXPECT_TRUE(w.raised());
    EXPECT_EQ(w.reason(),
              "11 of 1000 sends (1.1%) started over 1 ms late: the open-model "
              "schedule is not kept");
    w.on_sample(tick(1000, 500));
    EXPECT_FALSE(w.raised()) << "raised once, held after";
    for (int i = 0; i < 2; ++i) {
        w.on_sample(tick(1000, 0));
        EXPECT_TRUE(w.limited()) << i;
    }
    IntervalSample drain = tick(0, 0);
    drain.drain = true;
    w.on_sample(drain);
    EXPECT_TRUE(w.limited()) << "a drain is no tick";
    w.on_sample(tick(1000, 0));
    EXPECT_FALSE(w.limited());
    EXPECT_TRUE(w.cleared());
    EXPECT_EQ(w.limited_ticks(), 2u);
    EXPECT_EQ(w.ticks(), 6u);
    EXPECT_EQ(w.summary().rfind("limited in 2 of 6 ticks (last: 500 of 1000 sends", 0), 0u)
        << w.summary();
}

// A process that used more CPU time than the tick lasted on one core is at its limit.
TEST(GeneratorWatch, OwnCpuOverNinetyPercentOfItsCoresRaises) {
    GeneratorWatch w(1);
    const double from = cpu_s();
    volatile uint64_t spin = 0;
    while (cpu_s() - from < 0.05)
        spin = spin + 1;
    IntervalSample s = tick(0, 0);
    s.interval_ms = 50;
    w.on_sample(s);
    EXPECT_TRUE(w.limited()) << w.reason();
    EXPECT_EQ(w.reason().rfind("PerfLab itself used ", 0), 0u) << w.reason();
    GeneratorWatch wide(1000);
    wide.on_sample(s);
    EXPECT_FALSE(wide.limited()) << "a sliver of a thousand cores";
    EXPECT_EQ(wide.summary(), "");
}

// What the process spent before the clock started (connecting, a prefill) is not the first
// tick's: a watch made before it would otherwise see a process using many cores.
TEST(GeneratorWatch, CpuBeforeTheClockIsNotTheFirstTicks) {
    GeneratorWatch before(1), after(1);
    const double from = cpu_s();
    volatile uint64_t spin = 0;
    while (cpu_s() - from < 0.2)
        spin = spin + 1;
    after.on_clock(0);
    IntervalSample s = tick(0, 0);
    s.interval_ms = 100;
    before.on_sample(s);
    after.on_sample(s);
    EXPECT_TRUE(before.limited()) << "0.2 s of CPU in a 0.1 s tick, counted from its making";
    EXPECT_FALSE(after.limited()) << after.reason();
}

}  // namespace
}  // namespace perflab
