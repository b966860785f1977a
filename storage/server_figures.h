// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/phase_span.h"
#include "model/probe_sample.h"
#include "model/summary.h"

namespace perflab {

// What the servers did over a span of a run, from its probes' samples whose tick ended in
// (from_ms, to_ms] (a phase's: model/phase_span.h): the JVMs' full GCs ("jvm_full_gcs") and time
// spent in GC ("jvm_gc_ms"), the probed hosts' CPU ("host_cpu_mean_pct", "host_cpu_max_pct", over
// every host's ticks), memcached's evictions ("memcached_evictions") and most memory used
// ("memcached_bytes_max"), Redis's evicted keys ("redis_evictions"), the hit rate it saw
// ("redis_hit_pct", keyspace hits / lookups, %) and most memory used ("redis_memory_max").
// Always these keys in this order; NaN where no probe of that kind sampled the span.
std::vector<std::pair<std::string, double>> server_figures(const std::vector<ProbeSample>& samples,
                                                           int64_t from_ms, int64_t to_ms);

// The same figures for `run --json` and `show --json`: {"run": {...}, "phases": [{"phase": 0,
// ...}, ...]} (phases 0-based, as the SLO checks number them; a phase that never ran is left
// out), null for a figure no probe sampled, and null as a whole when no probe sampled any.
nlohmann::json servers_json(const RunSummary& s, const std::vector<ProbeSample>& samples);

// Whether `name` ("jvm_full_gcs", or per phase "p2.jvm_full_gcs") is one of the servers'
// figures above, which compare judges against its threshold: each is a server's own count,
// with no sampling interval to draw.
bool is_server_figure(const std::string& name);

}  // namespace perflab
