// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "engine.h"
#include "model/schedule.h"

namespace perflab {

// Where the controller posts the current phase for an engine's workers. Each plan is written
// once, before its index is published, so workers read plans without locks; a worker that
// has nothing to do sleeps on the index (futex) until it changes.
class PhaseBoard {
  public:
    static constexpr int kClosed = -2;

    explicit PhaseBoard(size_t phases);

    void publish(const PhasePlan& plan);  // controller
    void close();                         // controller: workers leave their loops

    int current() const noexcept { return current_.load(std::memory_order_acquire); }
    const PhasePlan& plan(int index) const noexcept { return plans_[size_t(index)]; }
    void wait_change(int seen) const noexcept;
    // Sleeps until t, or until the phase is no longer `seen`; false in the latter case.
    bool sleep_until(Clock::time_point t, int seen) const noexcept;

    // A worker finished its share of the phase (its ops, or its time) and has no op in flight.
    void mark_done(int phase) noexcept;
    bool phase_done() const noexcept;

  private:
    std::vector<PhasePlan> plans_;
    std::unique_ptr<std::atomic<int>[]> done_;
    std::atomic<int> current_{-1};
};

// One worker's way through a phase: whether it takes part, how many ops it owes in a
// count-limited phase, and in the open model when its next op is due (worker k of n sends
// the phase's ops k, k+n, k+2n...).
class OpPacer {
  public:
    void reset(const PhasePlan& plan, int worker) noexcept;

    bool active() const noexcept { return active_; }
    bool open() const noexcept { return open_; }
    // Its share is done, or the phase's time is up: no op starts after the phase's end, so
    // the phase's last sample holds all of its ops.
    bool exhausted() const noexcept {
        return done_ >= budget_ || due() == Clock::time_point::max() ||
               (end_ != Clock::time_point::max() && Clock::now() >= end_);
    }
    Clock::time_point due() const noexcept;
    void advance() noexcept {
        ++done_;
        next_ += stride_;
    }

  private:
    bool active_ = false;
    bool open_ = false;
    uint64_t budget_ = 0;
    uint64_t done_ = 0;
    uint64_t next_ = 0;
    uint64_t stride_ = 1;
    Clock::time_point start_{};
    Clock::time_point end_{};
    Phase phase_;
    OpenSchedule schedule_{Phase{}};
};

}  // namespace perflab
