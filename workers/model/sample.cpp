// SPDX-License-Identifier: MIT
#include "sample.h"

#include <algorithm>

namespace perflab {

void OpSample::merge(const OpSample& other) {
    count += other.count;
    errors += other.errors;
    latency.merge(other.latency);
    service.merge(other.service);
    check_failures += other.check_failures;
    for (const auto& [check, n] : other.checks_failed)
        checks_failed[check] += n;
}

void NodeTick::merge(const NodeTick& other) {
    for (const auto& [op, n] : other.calls)
        calls[op] += n;
    errors += other.errors;
    hits += other.hits;
    misses += other.misses;
    moved += other.moved;
    asked += other.asked;
}

uint64_t NodeTick::total_calls() const {
    uint64_t n = 0;
    for (const auto& [op, c] : calls)
        n += c;
    return n;
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
    bytes_in_known = bytes_in_known && other.bytes_in_known;
    bytes_out_known = bytes_out_known && other.bytes_out_known;
    add_sends(other.sent, other.first_send_us, other.last_send_us);
    add_reply_time(other.last_reply_us);
    late += other.late;
    dropped += other.dropped;
    moved += other.moved;
    asked += other.asked;
    for (const auto& [node, tick] : other.nodes)
        nodes[node].merge(tick);
    for (const auto& [kind, n] : other.errors)
        errors[kind] += n;
    for (const auto& [code, n] : other.status_codes)
        status_codes[code] += n;
}

void IntervalSample::add_sends(uint64_t n, int64_t first_us, int64_t last_us) {
    if (n == 0) return;
    first_send_us = sent ? std::min(first_send_us, first_us) : first_us;
    last_send_us = sent ? std::max(last_send_us, last_us) : last_us;
    sent += n;
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

uint64_t IntervalSample::total_check_failures() const {
    uint64_t n = 0;
    for (const auto& [name, op] : ops)
        n += op.check_failures;
    return n;
}

std::map<std::string, uint64_t> IntervalSample::checks_failed() const {
    std::map<std::string, uint64_t> all;
    for (const auto& [name, op] : ops)
        for (const auto& [check, n] : op.checks_failed)
            all[check] += n;
    return all;
}

Histogram IntervalSample::latency() const {
    Histogram all;
    for (const auto& [name, op] : ops)
        all.merge(op.latency);
    return all;
}

Histogram IntervalSample::service() const {
    Histogram all;
    for (const auto& [name, op] : ops)
        all.merge(op.service);
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
