// SPDX-License-Identifier: MIT
#pragma once

#include "model/spec.h"

namespace perflab {

// What agent k of n runs: each phase's connections split as evenly as possible (the first
// agents take one more), and a closed-model phase's op count too; in the open model agent k
// sends the run's ops k, k+n, k+2n... on the run's own schedule, so the merged schedule is the
// planned one, and a replay's lines k, k+n, ... of the first `ops`; a prefill sets keys k,
// k+n, ...; a search's connections are split the same way. Without agents, probes or slo
// (a search keeps its slo, unused): the controller samples the hosts and judges the merged
// run.
RunSpec agent_share(const RunSpec& spec, int k, int n);

}  // namespace perflab
