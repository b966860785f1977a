// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/compare_stats.h"
#include "run_report.h"

namespace perflab {

// Runs side by side: key figures with their change against the first run, the spec fields
// and the machine fields that differ, and whether the runs saw different machines.
//
// A side is one run or several pooled (the runs of a --repeat series): its values are the
// mean over its runs, and the figures statistics judge (compare_stats.h) are judged over all
// of its runs' ticks. When the runs' specs have the same phases, those figures are also
// judged phase by phase ("p2.throughput").
struct Comparison {
    struct Figure {
        std::string name;               // "throughput", "p99_us"...
        std::vector<double> values;     // per side; NaN where it does not apply
        std::vector<double> delta_pct;  // against the first side; NaN where undefined
        // For a judged figure, per side: "baseline" for the first, then "better", "worse",
        // "same" or "too few ticks"; the interval of delta_pct; where higher is better; and
        // whether the delta is in percentage points (a fraction) rather than in %.
        std::vector<std::string> verdict;
        std::vector<std::optional<std::pair<double, double>>> ci;
        bool higher_is_better = true;
        bool points = false;
        bool judged() const { return !verdict.empty(); }
    };
    struct Difference {
        std::string field;  // a JSON pointer, /cache/keys/count
        std::vector<std::string> values;
    };
    std::vector<RunInfo> runs;  // per side, its first run
    std::vector<std::vector<int64_t>> sides;
    std::vector<std::string> warnings;
    std::vector<Figure> figures;
    std::vector<Difference> spec_differences;
    std::vector<Difference> hardware_differences;  // of the clients
    bool different_machines = false;
};

Comparison compare_runs(RunStore& store, const std::vector<int64_t>& ids);
Comparison compare_sides(RunStore& store, const std::vector<std::vector<int64_t>>& sides,
                         const StatOptions& options = {});
// The figures judged `worse` against the first side, by name ("p99_us").
std::vector<std::string> worse_figures(const Comparison& c, const std::vector<std::string>& names);
std::string comparison_text(const Comparison& c);
nlohmann::json to_json(const Comparison& c);

}  // namespace perflab
