// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>

namespace perflab {

// Two instances of T: one thread writes into the active one while a collector drains the
// other. The writer never waits: entering and leaving a write are two uncontended atomic
// increments (HdrHistogram's writer-reader phaser). The collector flips the active instance
// and waits only for a write already in progress on the old one to finish.
//
// One writer thread and one collector thread per DoubleBuffer.
template <class T>
class DoubleBuffer {
  public:
    DoubleBuffer() = default;
    // Both instances start as copies of `initial` (sized up front, say).
    explicit DoubleBuffer(const T& initial) : buffers_{initial, initial} {}

    template <class F>
    void write(F&& f) noexcept {
        const int64_t entered = start_.fetch_add(1, std::memory_order_acq_rel);
        f(buffers_[entered < 0 ? 1 : 0]);
        (entered < 0 ? odd_end_ : even_end_).fetch_add(1, std::memory_order_release);
    }

    // Hands the instance the writer just left to f, then resets it for its next turn.
    template <class F>
    void drain(F&& f) {
        const bool next_even = start_.load(std::memory_order_acquire) < 0;
        const int64_t initial = next_even ? 0 : kOddStart;
        (next_even ? even_end_ : odd_end_).store(initial, std::memory_order_release);
        const int64_t at_flip = start_.exchange(initial, std::memory_order_acq_rel);
        std::atomic<int64_t>& old_end = next_even ? odd_end_ : even_end_;
        while (old_end.load(std::memory_order_acquire) != at_flip)
            std::this_thread::yield();
        T& old = buffers_[next_even ? 1 : 0];
        f(static_cast<const T&>(old));
        old.reset();
    }

  private:
    static constexpr int64_t kOddStart = INT64_MIN;

    alignas(64) std::atomic<int64_t> start_{0};
    std::atomic<int64_t> even_end_{0};
    std::atomic<int64_t> odd_end_{kOddStart};
    T buffers_[2];
};

}  // namespace perflab
