// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "model/agent_totals.h"
#include "sqlite.h"

namespace perflab {

// Each agent's figures as `run --json` and `show --json` give them: counts per op and each
// op's latency histogram as base64 of Histogram::encode, so the merged figures can be checked
// against the agents'; its clock offset and what its ticks cost on the wire.
nlohmann::json agent_totals_json(const std::vector<AgentTotals>& agents);
// One element of that array back; throws std::runtime_error when it is malformed.
AgentTotals agent_totals_from_json(const nlohmann::json& json);

// A run's agents (table run_agents), in the spec's order: written with its end, read with its
// summary.
void write_agents(Connection& db, int64_t run, const std::vector<AgentTotals>& agents);
std::vector<AgentTotals> read_agents(Connection& db, int64_t run);

}  // namespace perflab
