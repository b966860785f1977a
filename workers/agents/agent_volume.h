// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include "model/sample.h"

namespace perflab {

// What one agent has sent so far, held under limits no real run comes near, so that its
// figures summed over its ticks and over the agents cannot wrap the controller's unsigned
// counters (a histogram keeps counts under 2^63 to encode them exactly): counts (ops, errors,
// histogram counts, hits, sent, dropped...) under 2^48, latency sums in µs and bytes under 2^54
// each — room for over a thousand agents.
class AgentVolume {
  public:
    static constexpr uint64_t kMaxCounts = uint64_t(1) << 48;
    static constexpr uint64_t kMaxSums = uint64_t(1) << 54;
    // Adds a tick; throws std::runtime_error naming what passed its limit, leaving the volume
    // as it was.
    void add(const IntervalSample& tick);

  private:
    uint64_t counts_ = 0;
    uint64_t latency_us_ = 0;
    uint64_t bytes_ = 0;
};

}  // namespace perflab
