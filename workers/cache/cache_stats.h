// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>

#include "model/histogram.h"
#include "model/sample.h"
#include "op_times.h"
#include "resp_codec.h"

namespace perflab {

// mget: one request for cache.multiget keys, timed as one; its keys count as hits and misses.
enum class CacheOp { get, set, mget };
// `cancelled`: in flight when a stop stopped waiting for it.
enum class CacheError { timeout, connection, server, cancelled };

// One worker's counts for one tick: plain fields, written by that worker alone (inside a
// DoubleBuffer), merged into the IntervalSample by the collector.
struct CacheStats {
    std::array<uint64_t, 3> count{};
    std::array<uint64_t, 3> errors{};
    std::array<Histogram, 3> latency;
    std::array<Histogram, 3> service;  // open model only
    std::array<uint64_t, 4> error_kinds{};
    std::array<uint64_t, kRedisErrorNames.size()> redis_errors{};
    uint64_t hits = 0;
    uint64_t misses = 0;
    uint64_t bytes_in = 0;
    uint64_t bytes_out = 0;
    uint64_t sent = 0;
    uint64_t late = 0;
    uint64_t dropped = 0;
    uint64_t moved = 0;  // Redis Cluster redirections followed
    uint64_t asked = 0;
    OpTimes times;

    // service_us < 0: the closed model, where service time is the latency.
    void record(CacheOp op, int64_t latency_us, int64_t service_us = -1) noexcept {
        ++count[size_t(op)];
        latency[size_t(op)].record(latency_us);
        if (service_us >= 0) service[size_t(op)].record(service_us);
    }
    // A server's error reply took a response time; a failure without a reply (a timeout, a
    // lost connection, a cancel) has none: counted as an error of its kind, not as a latency.
    void fail(CacheOp op, CacheError kind, int64_t latency_us, int64_t service_us = -1) noexcept {
        if (kind == CacheError::server)
            record(op, latency_us, service_us);
        else
            ++count[size_t(op)];
        ++errors[size_t(op)];
        ++error_kinds[size_t(kind)];
    }
    // A Redis error reply: counted by its kind ("WRONGTYPE"), with its response time.
    void fail_reply(CacheOp op, RedisError kind, int64_t latency_us,
                    int64_t service_us = -1) noexcept {
        record(op, latency_us, service_us);
        ++errors[size_t(op)];
        ++redis_errors[size_t(kind)];
    }
    void reset() noexcept;
    // Times relative to origin, the run's start.
    void add_to(IntervalSample& sample, Clock::time_point origin) const;
};

}  // namespace perflab
