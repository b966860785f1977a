// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "histogram.h"
#include "summary.h"

namespace perflab {

// vegeta's report for one phase or the whole run, computed from the run's totals.
struct HttpReport {
    uint64_t requests = 0;
    double rate = 0;        // requests / attack_s
    double throughput = 0;  // successes / duration_s
    double duration_s = 0;  // attack + wait
    double attack_s = 0;
    double wait_s = 0;  // after the last send, until the last reply
    Histogram latency;
    Histogram service;  // open model: from the actual send
    uint64_t bytes_in = 0;
    uint64_t bytes_out = 0;
    bool bytes_in_known = true;  // IntervalSample's: false where the run's source had none
    bool bytes_out_known = true;
    double success = 0;     // share of requests answered 200..399
    double error_rate = 0;  // the rest: other codes and transport errors
    std::map<int, uint64_t> status_codes;
    std::map<std::string, uint64_t> errors;
    uint64_t late_sends = 0;
    uint64_t dropped = 0;  // due in the open model and never sent
    // Requests whose response failed a check (counted as errors too), and failures per check
    // over all targets and per target.
    uint64_t check_failures = 0;
    std::map<std::string, uint64_t> checks_failed;
    std::map<std::string, std::map<std::string, uint64_t>> target_checks_failed;

    double bytes_in_mean() const { return requests ? double(bytes_in) / double(requests) : 0; }
    double bytes_out_mean() const { return requests ? double(bytes_out) / double(requests) : 0; }
};

// The figures of figures(RunKind::http, totals) (vegeta's definitions) and the rest of
// vegeta's report.
HttpReport http_report(const PhaseTotals& totals);

// {"requests", "rate", "throughput", "duration_s", "attack_s", "wait_s", "latency_us": {...},
//  "bytes_in": {"total", "mean"}, "bytes_out": {...}, "success", "error_rate",
//  "status_codes": {"200": n}, "errors": {"timeout": n}, "late_sends", "dropped",
//  "check_failures", "checks_failed": {"body_contains": n}}
nlohmann::json to_json(const HttpReport& report);
// The overall report plus "ops" (per target, with its "check_failures" and "checks_failed"),
// "kind", "status", "error", "seed", "phases": [the same per phase, with "phase"].
nlohmann::json http_report_json(const RunSummary& summary);

// The report's text, vegeta's layout ("Requests      [total, rate, throughput]  ...").
std::string http_report_text(const HttpReport& report);
// Per phase (when there are several), then overall.
std::string http_report_text(const RunSummary& summary);

}  // namespace perflab
