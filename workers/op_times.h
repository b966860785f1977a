// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdint>

#include "model/sample.h"

namespace perflab {

using Clock = std::chrono::steady_clock;

inline int64_t micros(Clock::duration d) noexcept {
    return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
}

// When one worker's ops of a tick were first and last sent and last answered: vegeta's
// attack (first to last send) and wait (last send to last reply), kept as clock readings the
// worker already has, turned into µs since the run's start by the collector.
struct OpTimes {
    Clock::time_point first_send = Clock::time_point::max();
    Clock::time_point last_send = Clock::time_point::min();
    Clock::time_point last_reply = Clock::time_point::min();

    void sent(Clock::time_point t) noexcept {
        if (t < first_send) first_send = t;
        if (t > last_send) last_send = t;
    }
    void replied(Clock::time_point t) noexcept {
        if (t > last_reply) last_reply = t;
    }
    void reset() noexcept { *this = OpTimes{}; }

    // Counts `sends` into out, with these times relative to origin.
    void add_to(IntervalSample& out, uint64_t sends, Clock::time_point origin) const {
        const auto us = [origin](Clock::time_point t) { return micros(t - origin); };
        if (sends) out.add_sends(sends, us(first_send), us(last_send));
        if (last_reply != Clock::time_point::min()) out.add_reply_time(us(last_reply));
    }
};

}  // namespace perflab
