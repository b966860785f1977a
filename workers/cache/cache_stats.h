// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/histogram.h"
#include "model/sample.h"
#include "op_times.h"
#include "resp_codec.h"

namespace perflab {

// mget: one request for cache.multiget keys, timed as one; its keys count as hits and misses.
// command: one of cache.commands (AsyncConnection::Pending::command says which).
enum class CacheOp { get, set, mget, command };
// get, set and mget have a slot each in CacheStats::ops; cache.commands follow, one each.
inline constexpr size_t kCacheOps = 3;
// `cancelled`: in flight when a stop stopped waiting for it.
enum class CacheError { timeout, connection, server, cancelled };

// One worker's counts for one tick: plain fields, written by that worker alone (inside a
// DoubleBuffer), merged into the IntervalSample by the collector.
struct CacheStats {
    struct Op {
        uint64_t count = 0;
        uint64_t errors = 0;
        Histogram latency;
        Histogram service;  // open model only
    };
    // By slot: get, set, mget, then each command's; sized up front, so recording never
    // allocates.
    std::vector<Op> ops;
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
    // Redis Cluster: each node's part, by its index in the worker's ClusterMap. A node's entry
    // is made the first time it answers into this instance, so recording allocates nothing
    // but once per node.
    struct Node {
        std::string name;             // host:port; empty: no entry yet
        std::vector<uint64_t> calls;  // by slot, as ops
        uint64_t errors = 0;
        uint64_t hits = 0;
        uint64_t misses = 0;
        uint64_t moved = 0;
        uint64_t asked = 0;
    };
    std::vector<Node> nodes;
    OpTimes times;

    explicit CacheStats(size_t commands = 0) : ops(kCacheOps + commands) {}

    // service_us < 0: the closed model, where service time is the latency.
    void record(size_t slot, int64_t latency_us, int64_t service_us = -1) noexcept {
        Op& op = ops[slot];
        ++op.count;
        op.latency.record(latency_us);
        if (service_us >= 0) op.service.record(service_us);
    }
    void record(CacheOp op, int64_t latency_us, int64_t service_us = -1) noexcept {
        record(size_t(op), latency_us, service_us);
    }
    // A server's error reply took a response time; a failure without a reply (a timeout, a
    // lost connection, a cancel) has none: counted as an error of its kind, not as a latency.
    void fail(size_t slot, CacheError kind, int64_t latency_us, int64_t service_us = -1) noexcept {
        if (kind == CacheError::server)
            record(slot, latency_us, service_us);
        else
            ++ops[slot].count;
        ++ops[slot].errors;
        ++error_kinds[size_t(kind)];
    }
    void fail(CacheOp op, CacheError kind, int64_t latency_us, int64_t service_us = -1) noexcept {
        fail(size_t(op), kind, latency_us, service_us);
    }
    // A Redis error reply: counted by its kind ("WRONGTYPE"), with its response time.
    void fail_reply(size_t slot, RedisError kind, int64_t latency_us,
                    int64_t service_us = -1) noexcept {
        record(slot, latency_us, service_us);
        ++ops[slot].errors;
        ++redis_errors[size_t(kind)];
    }
    void fail_reply(CacheOp op, RedisError kind, int64_t latency_us,
                    int64_t service_us = -1) noexcept {
        fail_reply(size_t(op), kind, latency_us, service_us);
    }
    Node& node(size_t index, const std::string& name) {
        if (index < nodes.size() && !nodes[index].name.empty()) return nodes[index];
        return add_node(index, name);
    }
    void reset() noexcept;
    // Times relative to origin, the run's start. With `commands` (cache.commands' op names),
    // the ops are those commands', each named; else get, set and mget.
    void add_to(IntervalSample& sample, Clock::time_point origin,
                const std::vector<std::string>& commands = {}) const;

  private:
    Node& add_node(size_t index, const std::string& name);
};

}  // namespace perflab
