// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "summary.h"

namespace perflab {

// A cache phase: the key figures (figures.h) and {"ops": {"get": {"count", "errors", "rate",
// "latency_us": {...}}}, "hits", "misses", "hit_rate", "bytes_in", "bytes_out", "late",
// "sent", "dropped", "errors": {kind: n}, "redirections": {"moved", "ask"} (Redis Cluster),
// "nodes": {node: {...}} (Redis Cluster, node_ticks.h)}, with "phase" unless it is the whole
// run.
nlohmann::json cache_phase_json(const PhaseTotals& totals);
// The overall phase plus "kind", "status", "error", "prefill_sets", "seed", "phases".
nlohmann::json cache_report_json(const RunSummary& summary);

// The end-of-run report: per phase, then overall.
std::string cache_report_text(const RunSummary& summary);

}  // namespace perflab
