// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "agent_totals.h"
#include "sample.h"
#include "search_result.h"
#include "slo.h"
#include "spec.h"

namespace perflab {

// A phase, or the whole run: every tick in it merged.
struct PhaseTotals {
    int phase = -1;         // -1: the whole run
    double duration_s = 0;  // from its first sample's start to its last sample's end
    IntervalSample totals;
    int64_t start_ms = 0;  // when its first sample began
};

enum class RunStatus { running, completed, stopped, failed, interrupted, imported };
const char* to_string(RunStatus);

struct RunSummary {
    RunKind kind = RunKind::cache;
    RunStatus status = RunStatus::completed;
    std::string error;  // why a failed run failed
    PhaseTotals overall;
    std::vector<PhaseTotals> phases;
    uint64_t prefill_sets = 0;
    std::optional<SloVerdict> slo;       // when the spec has an slo (and no search)
    std::optional<SearchResult> search;  // when the spec has a search
    std::optional<uint64_t> seed;        // the spec's, so a report names what reproduces the run
    std::vector<AgentTotals> agents;     // each agent's share, when agents sent the load
    // A cache run whose phases have workloads of their own: each phase's (phase_loads), which
    // the reports say beside its figures; empty otherwise.
    std::vector<CacheLoad> phase_loads;
    // A Redis Cluster run: its redirections (MOVED, ASK) are told even when there were none,
    // as a stable cluster's figure, where another run has no such figure at all.
    bool redis_cluster = false;
};

// Whether a run's outputs tell its redirections: a Redis Cluster run's always, another run's
// when it had any (an agent's or an imported run's summary may not say which it was).
bool tells_redirections(const RunSummary& summary);
// Whether the spec runs against a Redis Cluster (RunSummary::redis_cluster).
bool is_redis_cluster(const RunSpec& spec);

// Builds the summary from the samples of a run, in order.
class SummaryBuilder {
  public:
    explicit SummaryBuilder(RunKind kind);
    void add(const IntervalSample& sample);
    // A phase's totals so far (empty if it has no sample yet).
    PhaseTotals phase(int index) const;
    RunSummary finish(RunStatus status) const;

  private:
    RunSummary summary_;
};

}  // namespace perflab
