// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sample.h"
#include "spec.h"

namespace perflab {

// One objective judged over one scope: the run, a phase, or a live window.
struct SloCheck {
    std::string key;    // the spec's name for it: "p99", "error_rate", "min_success", ...
    std::string name;   // as a reader says it: "p99 ≤ 100 ms"
    std::string scope;  // "run", "phase 2", "window"
    std::optional<double> measured;  // in the limit's unit (ms, fraction, count); none: no data
    double limit = 0;
    bool passed = false;
    // A phase's check: the phase's index in the run's phases (and a search's steps[].phase),
    // counted from 0 as every JSON "phase" is; its scope says "phase N", counted from 1 as
    // text is. -1 for the run's and a window's checks.
    int phase = -1;
    // A window check that stopped the run (slo.abort): the window it judged, in ms since the
    // run started; -1 for a phase's or the run's check.
    int64_t from_ms = -1, to_ms = -1;

    // "p99 ≤ 100 ms (run): 250.1 ms", "error rate ≤ 1% (phase 2): no data"
    std::string text() const;
    std::string measured_text() const;  // "250.1 ms", "0.5%", "no data"
};

struct SloVerdict {
    bool passed = true;
    std::vector<SloCheck> checks;
};

// Judges one scope's merged figures against every objective the spec gives. `full_gcs` is
// what the run's JVM probes saw in that scope (none: the check has no data). Percentiles come
// from the scope's merged histogram, never from averaged tick percentiles. Dropped ops (due,
// never sent) count as errors and against success.
void check_scope(const SloSpec& slo, RunKind kind, const IntervalSample& totals, bool open_model,
                 std::optional<uint64_t> full_gcs, const std::string& scope,
                 std::vector<SloCheck>& out);

// Every objective for each phase and for the whole run. `phase_gcs[i]`: full GCs in phase i.
SloVerdict evaluate_slo(const SloSpec& slo, const RunSpec& spec,
                        const std::vector<IntervalSample>& phase_totals,
                        const IntervalSample& run_totals, const std::vector<uint64_t>& phase_gcs);

// {"passed": bool, "checks": [{"key", "name", "scope", "measured" (null: no data), "limit",
//  "passed", and "phase" (0-based, as steps[].phase and phases[].phase) for a phase's check,
//  "from_ms"/"to_ms" for the window that stopped the run}]}
nlohmann::json to_json(const SloVerdict& verdict);
std::optional<SloVerdict> slo_verdict_from_json(const nlohmann::json& json);

// One line per check, the failing ones last, so a terminal shows them at the bottom.
std::string slo_text(const SloVerdict& verdict);

}  // namespace perflab
