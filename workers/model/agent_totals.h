// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "sample.h"

namespace perflab {

// What one agent did over the whole run, beside the merged figures.
struct AgentTotals {
    std::string host;  // user@host:port, or "local"
    IntervalSample totals;
    bool lost = false;
    double cpu_max = 0;  // the most CPU it used in a tick, % of its host's cores
    uint64_t ticks = 0;  // tick records it sent (none for the local agent)
    uint64_t tick_bytes = 0;
    int64_t clock_offset_ns = 0;  // its clock minus the controller's, and how well known
    int64_t clock_uncertainty_ns = 0;
};

// "agent HOST: 1234 ops, get 1100, set 134, 0 errors, 3 late, p99 0.52ms, CPU max 12%, 1.9 KiB a
// tick" — an event of the run, so the store keeps each agent's share.
std::string agent_totals_text(const AgentTotals& a);

}  // namespace perflab
