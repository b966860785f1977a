// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <random>

#include "model/sample.h"

namespace perflab::test {

// A tick as a cache run makes it: gets and sets with log-normal latencies around a few
// hundred µs, a tail into milliseconds, hits and misses, an error now and then.
inline IntervalSample synthetic_tick(int64_t index, int64_t tick_ms = 1000, int phase = 0,
                                     uint64_t ops_per_tick = 20000) {
    std::mt19937_64 rng(uint64_t(index) * 7919 + 1);
    std::lognormal_distribution<double> latency(5.5, 0.6);  // median ~245 µs
    IntervalSample s;
    s.t_ms = (index + 1) * tick_ms;
    s.interval_ms = tick_ms;
    s.phase = phase;
    s.connections = 16;
    OpSample& get = s.ops["get"];
    OpSample& set = s.ops["set"];
    for (uint64_t i = 0; i < ops_per_tick; ++i) {
        OpSample& op = i % 10 == 9 ? set : get;
        int64_t us = int64_t(latency(rng));
        if (i % 997 == 0) us *= 40;  // the tail
        op.latency.record(us);
        ++op.count;
    }
    get.errors = uint64_t(index % 7 == 0);
    if (get.errors) s.errors["timeout"] = 1;
    s.hits = get.count * 97 / 100;
    s.misses = get.count - s.hits;
    s.bytes_in = s.hits * 1200;
    s.bytes_out = set.count * 1200;
    s.sent = get.count + set.count;
    return s;
}

}  // namespace perflab::test
