// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

#include "observer.h"

namespace perflab {

// Tells when the load generator, not the server, may be what limits a run: a tick in which
// over 1% of the sends started more than 1 ms late (the open-model schedule is not kept), or
// in which PerfLab's process used over 90% of the cores its engine may use (its own CPU
// time, from the kernel, over the tick). Raised by such a tick, the warning holds until three
// ticks in a row are clear: one late send does not raise it, and it does not stay up for good
// once the generator keeps up again.
class GeneratorWatch : public RunObserver {
  public:
    static constexpr double kLateShare = 0.01;
    static constexpr double kCpuShare = 0.9;
    static constexpr int kClearTicks = 3;

    // `cores`: how many cores the engine's threads may keep busy (generator_cores).
    explicit GeneratorWatch(int cores);

    // The CPU the first tick is judged by counts from here: connecting and a prefill, before
    // the clock, are not the run's.
    void on_clock(int64_t wall_ms) override;
    // Per tick, on the thread that delivers ticks; a phase's drain is no tick.
    void on_sample(const IntervalSample& sample) override;

    bool limited() const { return limited_; }
    // Whether the last tick raised the warning, or cleared it.
    bool raised() const { return raised_; }
    bool cleared() const { return cleared_; }
    // Why it was raised last ("31 of 200 sends (15.5%) started over 1 ms late...").
    const std::string& reason() const { return reason_; }
    uint64_t limited_ticks() const { return limited_ticks_; }
    uint64_t ticks() const { return ticks_; }
    // "limited in 5 of 60 ticks (…the reason…)"; empty when it never was.
    std::string summary() const;

  private:
    double cores_;
    double last_cpu_s_ = 0;
    bool limited_ = false, raised_ = false, cleared_ = false;
    int clear_run_ = 0;
    std::string reason_;
    uint64_t limited_ticks_ = 0, ticks_ = 0;
};

// The cores a spec's engine may keep busy: its worker threads, at most this machine's cores.
int generator_cores(const RunSpec& spec);

}  // namespace perflab
