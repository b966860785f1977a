// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "engine.h"
#include "model/replay_file.h"
#include "model/schedule.h"

namespace perflab {

// Where the controller posts the current phase for an engine's workers. Each plan is written
// once, before its index is published, so workers read plans without locks; a worker that
// has nothing to do sleeps on the index (futex) until it changes.
class PhaseBoard {
  public:
    static constexpr int kClosed = -2;

    explicit PhaseBoard(size_t phases);

    // Controller. The phase before ends where this one starts: its workers send none of its
    // ops due from then on, even before they see this plan (a rate changed mid-phase starts
    // the rest of the phase at once, and a worker late to see it would send both plans' ops).
    void publish(const PhasePlan& plan);
    void close();  // controller: workers leave their loops

    int current() const noexcept { return current_.load(std::memory_order_acquire); }
    const PhasePlan& plan(int index) const noexcept { return plans_[size_t(index)]; }
    // Where phase `index`'s schedule was cut by the next phase's start (max until then).
    const std::atomic<Clock::rep>* cut(int index) const noexcept { return &cuts_[size_t(index)]; }
    void wait_change(int seen) const noexcept;
    // Sleeps until t, or until the phase is no longer `seen`; false in the latter case.
    bool sleep_until(Clock::time_point t, int seen) const noexcept;

    // A worker finished its share of the phase (its ops, or its time) and has no op in flight.
    void mark_done(int phase) noexcept;
    bool phase_done() const noexcept;
    // A worker saw the phase end and has no op of it left in flight; `parties` workers in all.
    void mark_drained(int phase) noexcept;
    bool drained(int phase, int parties) const noexcept;

  private:
    std::vector<PhasePlan> plans_;
    std::unique_ptr<std::atomic<int>[]> done_;
    std::unique_ptr<std::atomic<int>[]> drained_;
    std::unique_ptr<std::atomic<Clock::rep>[]> cuts_;
    std::atomic<int> current_{-1};
};

// One worker's way through a phase: whether it takes part, how many ops it owes in a
// count-limited phase, and in the open model when its next op is due (worker k of n sends
// the phase's ops k, k+n, k+2n...).
class OpPacer {
  public:
    // Every phase replays `file` (kept alive by the spec): its ops bound each phase's count,
    // and with timestamps and a speed (> 0) they set when each op is due.
    void replay(const ReplayFile* file, double speed) noexcept {
        replay_ = file;
        speed_ = speed;
    }
    // `cut`, if given, ends the schedule early once the board sets it (PhaseBoard::cut).
    void reset(const PhasePlan& plan, int worker,
               const std::atomic<Clock::rep>* cut = nullptr) noexcept;

    bool active() const noexcept { return active_; }
    bool open() const noexcept { return open_; }
    // Its share is done: in the open model every op due before the phase's end is sent (one
    // due then is still owed after it, until the next phase drops it); in the closed model
    // the phase's time is up.
    bool exhausted() const noexcept {
        if (done_ >= budget_) return true;
        if (open_) return due() == Clock::time_point::max();
        return end_ != Clock::time_point::max() && Clock::now() >= end_;
    }
    // Open model: the ops that were due by `now` and are not sent yet, which a phase's end or
    // a stop drops; the pacer is left with nothing owed before `now`.
    uint64_t drop_due(Clock::time_point now) noexcept;
    Clock::time_point due() const noexcept;
    // The phase's op this worker sends next (in a replay, its line among the file's ops).
    uint64_t index() const noexcept { return next_; }
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
    const std::atomic<Clock::rep>* cut_ = nullptr;
    OpenSchedule schedule_{Phase{}};
    const ReplayFile* replay_ = nullptr;
    double speed_ = 0;
    bool timed_ = false;  // a replay at its file's times
};

}  // namespace perflab
