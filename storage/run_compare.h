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
// A side is one run or several pooled (the runs of a --repeat series). The figures statistics
// judge (compare_stats.h) are judged over all of its runs' ticks, and their values are the
// estimates the intervals are about (a p99 over the pooled ticks, never a mean of p99s);
// other figures' values are the mean over its runs. When the runs' specs have the same
// phases, the judged figures are also judged phase by phase ("p2.throughput").
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
        // A Prometheus series' mean or max: the series ("nginx_connections_active{a=\"1\"}"),
        // matched between sides by it, and per side the endpoint it came from ("" where the side
        // has none). Judged by the threshold as the servers' figures are, but a change beyond it
        // "differs", neither better nor worse: which way is better only its reader knows.
        std::string series;
        std::vector<std::string> sources;
        bool judged() const { return !verdict.empty(); }
        bool prometheus() const { return !sources.empty(); }
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
    // "within-run" when a side is one run: its intervals hold the noise within runs only;
    // "between-runs" when every side is several runs, drawn again as whole runs; "history"
    // when a side is one run and the spread of earlier runs (noise_runs) stands for its
    // run-to-run noise.
    std::string scope;
    std::vector<int64_t> noise_runs;
};

Comparison compare_runs(RunStore& store, const std::vector<int64_t>& ids);
// `noise_runs`: earlier runs whose spread is the run-to-run noise of each side of one run
// (three or more; see noise_history).
Comparison compare_sides(RunStore& store, const std::vector<std::vector<int64_t>>& sides,
                         const StatOptions& options = {},
                         const std::vector<int64_t>& noise_runs = {});
// The completed runs before `run` of its name on its machine (the same client identity),
// newest first, at most `most`, none of `excluded`: what compare --baseline takes for the
// run-to-run noise of a single new run.
std::vector<int64_t> noise_history(RunStore& store, int64_t run,
                                   const std::vector<int64_t>& excluded, size_t most = 10);
// The figures judged `worse` against the first side, by name ("p99_us").
std::vector<std::string> worse_figures(const Comparison& c, const std::vector<std::string>& names);
std::string comparison_text(const Comparison& c);
nlohmann::json to_json(const Comparison& c);

}  // namespace perflab
