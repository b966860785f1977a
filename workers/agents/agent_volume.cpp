// SPDX-License-Identifier: MIT
#include "agent_volume.h"

#include <bit>
#include <stdexcept>
#include <string>

namespace perflab {

namespace {

void add_within(uint64_t& total, uint64_t n, uint64_t limit, const char* what) {
    if (n > limit - total)
        throw std::runtime_error(std::string("its ") + what + " pass 2^" +
                                 std::to_string(std::countr_zero(limit)) + ": no real run's");
    total += n;
}

}  // namespace

void AgentVolume::add(const IntervalSample& tick) {
    AgentVolume v = *this;
    const auto count = [&](uint64_t n) { add_within(v.counts_, n, kMaxCounts, "counts"); };
    for (const auto& [name, op] : tick.ops) {
        count(op.count);
        count(op.errors);
        count(op.check_failures);
        for (const auto& [check, n] : op.checks_failed)
            count(n);
        for (const Histogram* h : {&op.latency, &op.service}) {
            count(h->count());
            add_within(v.latency_us_, h->sum(), kMaxSums, "latency sums");
        }
    }
    for (const uint64_t n : {tick.hits, tick.misses, tick.sent, tick.late, tick.dropped})
        count(n);
    for (const auto& [kind, n] : tick.errors)
        count(n);
    for (const auto& [code, n] : tick.status_codes)
        count(n);
    add_within(v.bytes_, tick.bytes_in, kMaxSums, "bytes");
    add_within(v.bytes_, tick.bytes_out, kMaxSums, "bytes");
    *this = v;
}

}  // namespace perflab
