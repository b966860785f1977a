// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>

#include "histogram.h"
#include "spec.h"
#include "summary.h"

namespace perflab {

// The key figures of a phase or a run. Every output — the console, `show`, `runs`,
// `compare`, the reports and the GUI — takes them from here, so that they agree.
//
// Both kinds: requests = operations completed, failed ones included; success and error_rate
// are the shares of them that did (not) fail; throughput = successful per second, rate = sent
// per second. HTTP follows vegeta: rate over the attack (first to last send), throughput over
// the total (attack + wait). Cache: both over the span of the phase's ticks.
struct Figures {
    uint64_t requests = 0;
    uint64_t errors = 0;
    double duration_s = 0;
    double attack_s = 0;  // http: first send to last send; cache: the duration
    double wait_s = 0;    // http: last send to last reply; cache: 0
    double rate = 0;
    double throughput = 0;
    // Of the ops due: those sent, and in the open model those dropped (due, never sent),
    // which count as errors as the slo counts them, in compare and in every report alike.
    double success = 0;     // 0..1
    double error_rate = 0;  // 0..1
    uint64_t dropped = 0;
    Histogram latency;               // µs, every op merged
    Histogram service;               // µs from the actual send; open model only
    std::optional<double> hit_rate;  // cache runs whose gets were answered

    uint64_t successes() const { return requests - errors; }
};

Figures figures(RunKind kind, const PhaseTotals& totals);

// Whether a cache run's hits and misses were counted. Each answered get is one or the other,
// so answered gets with neither come from a file that does not record them (memtier before
// 1.4, an HdrHistogram log): their hits, misses and hit rate are unknown (null, "-"), not 0.
// So are those of ops none of which is a get (a run of cache.commands without a GET).
bool hits_known(const IntervalSample& totals);

// A byte count as a report shows it (format_bytes), "-" where it was not counted
// (IntervalSample::bytes_in_known); in JSON, null there.
std::string bytes_text(uint64_t bytes, bool known);
nlohmann::json bytes_json(uint64_t bytes, bool known);

// {"min", "mean", "p50", "p90", "p95", "p99", "p999", "max"}, in µs.
nlohmann::json latency_json(const Histogram& h);
// Sets j["service_us"] to latency_json(service) when the service time was measured.
void add_service_json(nlohmann::json& j, const Histogram& service);
// Per op (cache: "get", "set"; HTTP: each target): {"count", "errors", "rate" (completed per
// second over the totals' duration), "latency_us", and in the open model "service_us"}.
nlohmann::json ops_json(const PhaseTotals& totals);
// The figures every summary shows, under the same keys for both kinds: "requests", "rate",
// "throughput", "success", "error_rate", "duration_s", "latency_us" (and "service_us").
void add_figures_json(nlohmann::json& j, const Figures& f);

}  // namespace perflab
