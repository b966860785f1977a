// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "old_gen.h"
#include "slo.h"

namespace perflab {

// What a saturation search found, step by step.
struct SearchStep {
    int phase = 0;
    double rate = 0;        // planned
    double throughput = 0;  // successful per second
    std::optional<double> p50_ms, p99_ms, p999_ms;
    double error_rate = 0;
    std::optional<double> hit_rate;
    std::optional<uint64_t> full_gcs;
    bool passed = false;
    std::vector<SloCheck> failed;       // the checks that failed
    bool confirm = false;               // a confirmation hold at the answer, not a bisection step
    std::optional<OldGenSpan> old_gen;  // the probed JVM's, over the step's load
    bool marginal = false;  // passed, but its old generation would fill within 2 × step_s
};

struct SearchResult {
    std::optional<double> max_rate;            // the highest rate that met every check
    std::optional<double> first_failing_rate;  // the lowest that did not
    std::optional<SloCheck> failed_check;      // the first that failed at it
    bool finished = false;                     // false: the run stopped before the answer
    bool confirmed = false;                    // a hold at max_rate passed
    std::vector<SearchStep> steps;
};

// {"max_rate", "first_failing_rate", "failed_check", "finished", "confirmed", "steps":
//  [{"phase", "rate", "throughput", "p50_ms", "p99_ms", "p999_ms", "error_rate", "hit_rate",
//  "full_gcs", "passed", "failed": [check names], "confirm", "marginal", "old_gen_start_pct",
//  "old_gen_end_pct", "old_gen_growth_pct_per_s"}]}; absent figures are null.
nlohmann::json to_json(const SearchResult& result);
std::optional<SearchResult> search_result_from_json(const nlohmann::json& json);
// The answer in one line: "Search: max rate 413/s; first failing 425/s (p99 ≤ 100 ms ...)".
std::string search_headline(const SearchResult& result);
// The step table as text cells, for every output to lay out: its header, and a step's row.
std::vector<std::string> search_columns();
std::vector<std::string> search_row(const SearchStep& step);
// The headline, then the step table.
std::string search_text(const SearchResult& result);

}  // namespace perflab
