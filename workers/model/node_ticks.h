// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "sample.h"

namespace perflab {

// A Redis Cluster run's nodes, as stored (samples.nodes_json), sent by agents and exported:
// {"127.0.0.1:7000": {"calls": {"get": n, ...}, "errors": n, "hits": n, "misses": n,
// "moved": n, "ask": n}, ...}.
nlohmann::json node_ticks_json(const std::map<std::string, NodeTick>& nodes);
// That object back; nullopt when it is malformed.
std::optional<std::map<std::string, NodeTick>> node_ticks_from_json(const nlohmann::json& j);

}  // namespace perflab
