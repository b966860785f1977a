// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include "cache_stats.h"
#include "model/spec.h"

namespace perflab {

// The operation a connection sends next under a workload (the run's, or a phase's). "ratio"
// interleaves gets and sets get_ratio:set_ratio on each connection, so the mix is exact at every
// count; cache-aside starts every cycle with a get (its set follows only a miss).
class OpMix {
  public:
    explicit OpMix(const CacheLoad& load)
        : workload_(load.workload),
          gets_(load.get_ratio),
          cycle_(uint64_t(load.get_ratio) + load.set_ratio) {}

    CacheWorkload workload() const noexcept { return workload_; }

    CacheOp next() noexcept {
        switch (workload_) {
            case CacheWorkload::get_only:
            case CacheWorkload::cache_aside:
                return CacheOp::get;
            case CacheWorkload::set_only:
                return CacheOp::set;
            case CacheWorkload::ratio:
                break;
        }
        return counter_++ % cycle_ < gets_ ? CacheOp::get : CacheOp::set;
    }

  private:
    CacheWorkload workload_;
    uint64_t gets_;
    uint64_t cycle_;
    uint64_t counter_ = 0;
};

}  // namespace perflab
