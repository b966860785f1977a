// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_report.h"

namespace perflab {

// Runs side by side: key figures with their change against the first run, the spec fields
// and the machine fields that differ, and whether the runs saw different machines.
struct Comparison {
    struct Figure {
        std::string name;               // "throughput", "p99_us"...
        std::vector<double> values;     // per run; NaN where it does not apply
        std::vector<double> delta_pct;  // against the first run; NaN where undefined
    };
    struct Difference {
        std::string field;  // a JSON pointer, /cache/keys/count
        std::vector<std::string> values;
    };
    std::vector<RunInfo> runs;
    std::vector<Figure> figures;
    std::vector<Difference> spec_differences;
    std::vector<Difference> hardware_differences;  // of the clients
    bool different_machines = false;
};

Comparison compare_runs(RunStore& store, const std::vector<int64_t>& ids);
std::string comparison_text(const Comparison& c);
nlohmann::json to_json(const Comparison& c);

}  // namespace perflab
