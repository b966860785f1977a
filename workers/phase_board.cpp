// SPDX-License-Identifier: MIT
#include "phase_board.h"

#include <algorithm>
#include <cmath>
#include <thread>

namespace perflab {

namespace {
// Longest uninterrupted sleep of an open-model worker, so phase changes and stops are seen.
constexpr auto kMaxNap = std::chrono::milliseconds(20);
}  // namespace

PhaseBoard::PhaseBoard(size_t phases)
    : plans_(phases),
      done_(std::make_unique<std::atomic<int>[]>(phases)),
      drained_(std::make_unique<std::atomic<int>[]>(phases)),
      cuts_(std::make_unique<std::atomic<Clock::rep>[]>(phases)) {
    for (size_t i = 0; i < phases; ++i)
        cuts_[i].store(Clock::time_point::max().time_since_epoch().count());
}

void PhaseBoard::publish(const PhasePlan& plan) {
    if (const int before = current(); before >= 0 && before != plan.index)
        cuts_[size_t(before)].store(plan.start.time_since_epoch().count(),
                                    std::memory_order_relaxed);
    cuts_[size_t(plan.index)].store(Clock::time_point::max().time_since_epoch().count(),
                                    std::memory_order_relaxed);
    plans_[size_t(plan.index)] = plan;
    current_.store(plan.index, std::memory_order_release);
    current_.notify_all();
}

void PhaseBoard::close() {
    current_.store(kClosed, std::memory_order_release);
    current_.notify_all();
}

void PhaseBoard::wait_change(int seen) const noexcept {
    while (current_.load(std::memory_order_acquire) == seen)
        current_.wait(seen);
}

bool PhaseBoard::sleep_until(Clock::time_point t, int seen) const noexcept {
    for (;;) {
        if (current() != seen) return false;
        const auto now = Clock::now();
        if (now >= t) return true;
        std::this_thread::sleep_until(std::min(t, now + kMaxNap));
    }
}

void PhaseBoard::mark_done(int phase) noexcept {
    done_[size_t(phase)].fetch_add(1, std::memory_order_acq_rel);
}

bool PhaseBoard::phase_done() const noexcept {
    const int i = current();
    if (i < 0) return false;
    return done_[size_t(i)].load(std::memory_order_acquire) >= plans_[size_t(i)].connections;
}

void PhaseBoard::mark_drained(int phase) noexcept {
    drained_[size_t(phase)].fetch_add(1, std::memory_order_acq_rel);
}

bool PhaseBoard::drained(int phase, int parties) const noexcept {
    return drained_[size_t(phase)].load(std::memory_order_acquire) >= parties;
}

void OpPacer::reset(const PhasePlan& plan, int worker,
                    const std::atomic<Clock::rep>* cut) noexcept {
    cut_ = cut;
    const auto n = uint64_t(std::max(1, plan.connections));
    active_ = uint64_t(worker) < n;
    timed_ = replay_ && replay_->timed() && speed_ > 0;
    open_ = plan.phase.open() || timed_;
    schedule_ = OpenSchedule(plan.phase);
    // Open model and replays: the run's ops interleave over agents first, then over this
    // one's workers, so each op of the schedule (or line of the file) is sent once.
    const bool shared = open_ || replay_;
    const auto shares = shared ? uint64_t(std::max(1, plan.shares)) : 1;
    next_ = (shared ? uint64_t(plan.share) : 0) + shares * uint64_t(worker);
    stride_ = shares * n;
    uint64_t ops = plan.phase.ops;
    if (replay_) ops = ops ? std::min<uint64_t>(ops, replay_->size()) : replay_->size();
    budget_ = !ops ? UINT64_MAX : ops > next_ ? (ops - 1 - next_) / stride_ + 1 : 0;
    done_ = 0;
    start_ = plan.start;
    end_ = plan.phase.duration_s > 0
               ? plan.start + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(plan.phase.duration_s))
               : Clock::time_point::max();
}

uint64_t OpPacer::drop_due(Clock::time_point now) noexcept {
    uint64_t n = 0;
    while (open_ && active_ && !exhausted() && due() <= now) {
        advance();
        ++n;
    }
    return n;
}

Clock::time_point OpPacer::due() const noexcept {
    if (!open_) return Clock::time_point::min();
    const double s = timed_ ? replay_->offset_s(next_) / speed_ : schedule_.due_s(next_);
    if (!std::isfinite(s)) return Clock::time_point::max();
    const auto t =
        start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
    if (t >= end_ ||
        (cut_ && t.time_since_epoch().count() >= cut_->load(std::memory_order_relaxed)))
        return Clock::time_point::max();
    return t;
}

}  // namespace perflab
