// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "spec.h"

namespace perflab {

// What the reports say of a cache run whose phases have workloads of their own (Phase::cache):
// each phase's, one per phase; empty for any other run, whose reports read as before.
std::vector<CacheLoad> phase_loads(const RunSpec& spec);

// "cache-aside, 10000000000 keys hot:N uniform, values 16..64 B"; a run of cache.commands
// says "commands" for its workload.
std::string cache_load_text(const CacheLoad& load);
// {"workload", "get_ratio" and "set_ratio" (ratio), "keys": {"count", "prefix",
// "distribution", ...}, "value_size": {"min", "max"} or {"weights"}, and "bytes"}
nlohmann::json cache_load_json(const CacheLoad& load);

}  // namespace perflab
