// SPDX-License-Identifier: MIT
#include "run_plan.h"

#include <algorithm>

#include "rate_search.h"
#include "replay_file.h"

namespace perflab {

namespace {

// Each phase replays the file once at most: it ends when the file does, if not before.
void end_with_replay(RunSpec& plan) {
    if (!plan.cache || !plan.cache->replay || !plan.cache->replay->ops) return;
    const uint64_t n = plan.cache->replay->ops->size();
    for (auto& p : plan.phases)
        p.ops = p.ops ? std::min(p.ops, n) : n;
}

}  // namespace

RunSpec run_plan(const RunSpec& spec) {
    RunSpec plan = spec;
    end_with_replay(plan);
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
    end_with_replay(plan);
    return plan;
}

}  // namespace perflab
