// SPDX-License-Identifier: MIT
#include "cache_stats.h"

#include <algorithm>

namespace perflab {

namespace {
constexpr const char* kOpNames[] = {"get", "set", "mget"};
constexpr const char* kErrorNames[] = {"timeout", "connection", "server", "cancelled"};

void add_op(OpSample& out, const CacheStats::Op& op) {
    out.count += op.count;
    out.errors += op.errors;
    out.latency.merge(op.latency);
    out.service.merge(op.service);
}

// An op's name in the sample: one of cache.commands, or get, set and mget.
const std::string& op_name(size_t slot, const std::vector<std::string>& commands) {
    static const std::string builtin[] = {kOpNames[0], kOpNames[1], kOpNames[2]};
    return commands.empty() ? builtin[slot] : commands[slot - kCacheOps];
}

void add_node_part(IntervalSample& sample, const CacheStats::Node& n,
                   const std::vector<std::string>& commands) {
    NodeTick& t = sample.nodes[n.name];
    for (size_t slot = commands.empty() ? 0 : kCacheOps; slot < n.calls.size(); ++slot)
        if (n.calls[slot]) t.calls[op_name(slot, commands)] += n.calls[slot];
    t.errors += n.errors;
    t.hits += n.hits;
    t.misses += n.misses;
    t.moved += n.moved;
    t.asked += n.asked;
}

}  // namespace

CacheStats::Node& CacheStats::add_node(size_t index, const std::string& name) {
    if (nodes.size() <= index) nodes.resize(index + 1);
    Node& n = nodes[index];
    n.name = name;
    n.calls.assign(ops.size(), 0);
    return n;
}

void CacheStats::reset() noexcept {
    for (auto& op : ops) {
        op.count = op.errors = 0;
        op.latency.reset();
        op.service.reset();
    }
    error_kinds = {};
    redis_errors = {};
    hits = misses = bytes_in = bytes_out = sent = late = dropped = moved = asked = 0;
    for (auto& n : nodes) {
        std::fill(n.calls.begin(), n.calls.end(), 0);
        n.errors = n.hits = n.misses = n.moved = n.asked = 0;
    }
    times.reset();
}

void CacheStats::add_to(IntervalSample& sample, Clock::time_point origin,
                        const std::vector<std::string>& commands) const {
    // Every command always appears, as get and set do in a workload's run (so a get-only run
    // still reports "set": 0); mget only in the runs that batch their gets.
    for (size_t c = 0; c < commands.size(); ++c)
        add_op(sample.ops[commands[c]], ops[kCacheOps + c]);
    for (size_t op = 0; op < kCacheOps && commands.empty(); ++op) {
        if (op == size_t(CacheOp::mget) && ops[op].count == 0) continue;
        add_op(sample.ops[kOpNames[op]], ops[op]);
    }
    for (size_t k = 0; k < error_kinds.size(); ++k)
        if (error_kinds[k]) sample.errors[kErrorNames[k]] += error_kinds[k];
    for (size_t k = 0; k < redis_errors.size(); ++k)
        if (redis_errors[k]) sample.errors[kRedisErrorNames[k]] += redis_errors[k];
    sample.hits += hits;
    sample.misses += misses;
    sample.bytes_in += bytes_in;
    sample.bytes_out += bytes_out;
    times.add_to(sample, sent, origin);
    sample.late += late;
    sample.dropped += dropped;
    sample.moved += moved;
    sample.asked += asked;
    for (const auto& n : nodes) {
        const bool any = n.errors + n.hits + n.misses + n.moved + n.asked > 0 ||
                         std::any_of(n.calls.begin(), n.calls.end(), [](uint64_t c) { return c; });
        if (any) add_node_part(sample, n, commands);
    }
}

}  // namespace perflab
