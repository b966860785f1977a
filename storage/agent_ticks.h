// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/sample.h"

namespace perflab {

// Each agent's part of one merged tick, as stored (samples.agents_json), `show --json`'s
// "agent_ticks" and the JSON export's ticks give it: its ops, errors, late sends, CPU (null
// when unknown), and whether its tick came after the grace (behind) or it was lost.
nlohmann::json agent_ticks_json(const std::vector<AgentTick>& agents);
// That array back; nullopt when it is malformed.
std::optional<std::vector<AgentTick>> agent_ticks_from_json(const std::string& text);

}  // namespace perflab
