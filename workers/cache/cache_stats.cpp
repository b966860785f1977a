// SPDX-License-Identifier: MIT
#include "cache_stats.h"

namespace perflab {

namespace {
constexpr const char* kOpNames[] = {"get", "set", "mget"};
constexpr const char* kErrorNames[] = {"timeout", "connection", "server", "cancelled"};
}  // namespace

void CacheStats::reset() noexcept {
    count = {};
    errors = {};
    error_kinds = {};
    redis_errors = {};
    for (auto& h : latency)
        h.reset();
    for (auto& h : service)
        h.reset();
    hits = misses = bytes_in = bytes_out = sent = late = dropped = moved = asked = 0;
    times.reset();
}

void CacheStats::add_to(IntervalSample& sample, Clock::time_point origin) const {
    for (size_t op = 0; op < count.size(); ++op) {
        // get and set always appear, so a get-only run still reports "set": 0; mget only in
        // the runs that batch their gets.
        if (op == size_t(CacheOp::mget) && count[op] == 0) continue;
        auto& out = sample.ops[kOpNames[op]];
        out.count += count[op];
        out.errors += errors[op];
        out.latency.merge(latency[op]);
        out.service.merge(service[op]);
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
}

}  // namespace perflab
