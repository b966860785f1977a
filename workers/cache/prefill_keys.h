// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace perflab {

// The keys one connection sets in a prefill. Agent `share` of `shares` takes the keys whose
// index is `share` modulo `shares`, its connection i of `connections` every `connections`-th
// of those from the i-th: over all agents and connections each key is set exactly once, and a
// run without agents (share 0 of 1) sets the whole key space.
struct PrefillKeys {
    uint64_t share = 0;
    uint64_t shares = 1;
    uint64_t connections = 1;

    uint64_t first(int connection) const { return share + shares * uint64_t(connection); }
    uint64_t stride() const { return shares * connections; }
};

}  // namespace perflab
