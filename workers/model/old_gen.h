// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "probe_sample.h"

namespace perflab {

// Where a JVM's old generation stood over a span of a run, and how fast it grew.
struct OldGenSpan {
    double start_pct = 0;
    double end_pct = 0;
    double growth_pct_per_s = 0;
};

// A step whose old generation would be full within 2 × step_s passed only because it ended
// first: held a little longer, its rate brings the full GC the step did not see.
bool marginal(const OldGenSpan& span, double step_s);

// The old-generation occupancy (old_pct) of the JVMs a run probes, as their samples come.
// Safe from any thread: the probes add, the controller asks.
class OldGenTrack {
  public:
    void add(const ProbeSample& sample);
    // Over (from_ms, to_ms]: from the last sample at or before from_ms (else the first
    // after) to the last at or before to_ms. Of several JVMs, the one that would fill first.
    std::optional<OldGenSpan> span(int64_t from_ms, int64_t to_ms) const;
    // Every JVM sampled has two samples after since_ms and its last did not fall: what a
    // collection freed once the load stopped is freed. False before any JVM sample.
    bool stopped_falling(int64_t since_ms) const;

  private:
    mutable std::mutex mutex_;
    std::map<std::string, std::vector<std::pair<int64_t, double>>> jvms_;  // (t_ms, old_pct)
};

}  // namespace perflab
