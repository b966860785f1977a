// SPDX-License-Identifier: MIT
#pragma once

#include "spec.h"

namespace perflab {

// Live rate changes a run can take: each makes the rest of its phase a phase of its own on
// the engine (a continuation), reported as the phase it changes.
constexpr int kRateChanges = 64;

// The phases an engine is built for, allotted up front since its phase board has a fixed
// size: a spec's phases, then kRateChanges placeholders for continuations; or a search's
// warm-up and steps (every step at rate_to, so connections are sized for the fastest).
RunSpec run_plan(const RunSpec& spec);

}  // namespace perflab
