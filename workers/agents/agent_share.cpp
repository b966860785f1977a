// SPDX-License-Identifier: MIT
#include "agent_share.h"

#include <algorithm>

#include "engine.h"
#include "model/rate_search.h"

namespace perflab {

namespace {

uint64_t split(uint64_t total, int k, int n) {
    return total / uint64_t(n) + (uint64_t(k) < total % uint64_t(n) ? 1 : 0);
}

}  // namespace

RunSpec agent_share(const RunSpec& spec, int k, int n) {
    RunSpec share = spec;
    share.agents.clear();
    share.on_agent_loss = AgentLoss::carry_on;
    share.probes.clear();
    // A search's spec needs its slo, but its controller alone judges the steps.
    if (!share.search) share.slo.reset();
    // Agents with one seed would send the same keys over their connections of the same index.
    if (share.seed) share.seed = *share.seed + uint64_t(k);
    const bool replay = spec.cache && spec.cache->replay;
    for (size_t i = 0; i < share.phases.size(); ++i) {
        Phase& p = share.phases[i];
        const int connections = phase_connections(spec, spec.phases[i]);
        p.concurrency = std::max(1, int(split(uint64_t(connections), k, n)));
        // The open model's agents all follow the run's schedule, each sending its ops; a
        // replay's agents interleave over the file's first `ops` lines (OpPacer).
        if (!p.open() && !replay && p.ops > 0) p.ops = std::max<uint64_t>(1, split(p.ops, k, n));
    }
    if (share.search) {
        const int connections = phase_connections(spec, search_step(*spec.search, 1));
        share.search->concurrency = std::max(1, int(split(uint64_t(connections), k, n)));
    }
    share.share = k;
    share.shares = n;
    return share;
}

}  // namespace perflab
