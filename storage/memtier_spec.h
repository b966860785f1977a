// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include "model/spec.h"

namespace perflab {

// The cache spec of an imported memtier_benchmark run from its "configuration": its server,
// protocol, set:get ratio, key range, prefix and pattern, value size, expiry, threads,
// pipeline, and its clients × threads connections for its test time (or request count) as
// the one phase, at its rate limit when it had one. PerfLab's keys hold no key minimum, no
// differing set and get patterns and no size list: those stay in the stored spec's
// "imported_from", which keeps the configuration whole.
void apply_memtier_configuration(const nlohmann::json& configuration, RunSpec& spec);

}  // namespace perflab
