// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "summary.h"

namespace perflab {

// Which phase a probe's sample belongs to, one rule for every consumer (the SLO's and a
// search step's full GCs, the servers' figures of reports, JSON and compare): a sample covers
// the time before its stamp, so phase i spans (its start, the next phase's start] and a sample
// stamped at a phase's start is the phase before's; whatever comes before the second phase
// began is the first phase's.

// `starts`: the phases' starts, ms on the run's clock, ascending.
size_t phase_at(const std::vector<int64_t>& starts, int64_t t_ms);

// Phase i's span (from, to] by that rule, from a run's summary; nullopt for a phase that
// never ran.
std::optional<std::pair<int64_t, int64_t>> phase_span(const RunSummary& s, size_t i);

}  // namespace perflab
