// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "model/sample.h"

namespace perflab {

// The controller and its agents speak JSON lines over the SSH channel, each record with
// "v": kAgentProtocol and a "type"; the agent's stdout holds records only, its stderr is its
// log. Agent → controller: hello {version, profile}, pong {t_ns}, ready {prefill_sets} (its
// engine made from its share, connected and prefilled) or end, tick {sample, cpu_pct,
// connection_error (its first, once)}, phase_end {phase} (its replies are in), step_end
// {phase} (done sending a phase or a search step: it waits for the next one's order), late
// {phase, by_us} (it found itself past the phase's start), end {status, error}. Controller →
// agent: ping, assign {spec, k, n} (secrets resolved), start {start_ns}, step {phase, rate,
// duration_s, start_ns} (every phase's or search step's start after the first), stop. Both
// sides must run the same PerfLab version.
inline constexpr int kAgentProtocol = 3;

std::string agent_version();  // this build's PerfLab version

// A tick whole: counts, and every histogram as base64 of Histogram::encode, so the controller
// merges the agents' histograms losslessly.
nlohmann::json sample_json(const IntervalSample& sample);
// Throws std::runtime_error on a malformed sample.
IntervalSample sample_from_json(const nlohmann::json& json);

// One record as a line, "v" set.
std::string record_line(nlohmann::json record);

}  // namespace perflab
