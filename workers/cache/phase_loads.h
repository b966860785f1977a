// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/spec.h"

namespace perflab {

// The workloads a cache run's phases use: the cache section's first (load 0), then each other
// one once. The engines prepare every load's key chooser, value source and op mix before the
// first phase, so a phase change switches between them and allocates nothing.
class PhaseLoads {
  public:
    explicit PhaseLoads(const RunSpec& spec) {
        loads_.push_back(cache_load(*spec.cache));
        for (const auto& p : spec.phases)
            if (p.cache && std::find(loads_.begin(), loads_.end(), *p.cache) == loads_.end())
                loads_.push_back(*p.cache);
    }

    const std::vector<CacheLoad>& loads() const noexcept { return loads_; }
    // A plan's phase is the spec's, or a continuation carrying its phase's load.
    int index_of(const Phase& p) const {
        if (!p.cache) return 0;
        const auto it = std::find(loads_.begin(), loads_.end(), *p.cache);
        return it == loads_.end() ? 0 : int(it - loads_.begin());
    }

    // Load 0's streams are the ones a run without phase loads has, so its keys stay the same.
    static uint64_t seed(uint64_t run_seed, int load) noexcept {
        return run_seed + uint64_t(load) * 0x9E3779B97F4A7C15ull;
    }

  private:
    std::vector<CacheLoad> loads_;
};

}  // namespace perflab
