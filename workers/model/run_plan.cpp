// SPDX-License-Identifier: MIT
#include "run_plan.h"

#include "rate_search.h"

namespace perflab {

RunSpec run_plan(const RunSpec& spec) {
    RunSpec plan = spec;
    if (!spec.search) {
        // A placeholder opens no connection of its own: a continuation keeps its phase's.
        Phase spare;
        spare.duration_s = 1;
        spare.rate = 1;
        spare.concurrency = spec.phases.empty() ? 0 : spec.phases.front().concurrency;
        plan.phases.insert(plan.phases.end(), size_t(kRateChanges), spare);
        return plan;
    }
    const SearchSpec& s = *spec.search;
    plan.phases.clear();
    if (s.warmup_s > 0) {
        Phase warmup = search_step(s, s.rate_from);
        warmup.duration_s = s.warmup_s;
        plan.phases.push_back(warmup);
    }
    plan.phases.insert(plan.phases.end(), size_t(RateSearch::max_steps(s)),
                       search_step(s, s.rate_to));
    return plan;
}

}  // namespace perflab
