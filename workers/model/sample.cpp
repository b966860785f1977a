// SPDX-License-Identifier: MIT
#include "sample.h"

#include <algorithm>

namespace perflab {

void OpSample::merge(const OpSample& other) {
    count += other.count;
    errors += other.errors;
    latency.merge(other.latency);
}

void IntervalSample::merge(const IntervalSample& other) {
    t_ms = std::max(t_ms, other.t_ms);
    interval_ms += other.interval_ms;
    phase = other.phase;
    planned_rate = other.planned_rate;
    connections = other.connections;
    for (const auto& [name, op] : other.ops)
        ops[name].merge(op);
    hits += other.hits;
    misses += other.misses;
    bytes_in += other.bytes_in;
    bytes_out += other.bytes_out;
    sent += other.sent;
    late += other.late;
    for (const auto& [kind, n] : other.errors)
        errors[kind] += n;
    for (const auto& [code, n] : other.status_codes)
        status_codes[code] += n;
}

uint64_t IntervalSample::total_ops() const {
    uint64_t n = 0;
    for (const auto& [name, op] : ops)
        n += op.count;
    return n;
}

uint64_t IntervalSample::total_errors() const {
    uint64_t n = 0;
    for (const auto& [name, op] : ops)
        n += op.errors;
    return n;
}

Histogram IntervalSample::latency() const {
    Histogram all;
    for (const auto& [name, op] : ops)
        all.merge(op.latency);
    return all;
}

double IntervalSample::hit_rate() const {
    const uint64_t gets = hits + misses;
    return gets ? double(hits) / double(gets) : 0.0;
}

double IntervalSample::rate(const std::string& op) const {
    const auto it = ops.find(op);
    if (it == ops.end() || interval_ms <= 0) return 0.0;
    return double(it->second.count) / seconds();
}

}  // namespace perflab
