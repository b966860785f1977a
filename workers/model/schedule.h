// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include "spec.h"

namespace perflab {

// When each operation of an open-model phase is due: op i of the phase starts at the moment
// the planned rate, integrated from the phase's start, reaches i. Sends are spread evenly
// (or along the ramp), never bunched per tick. Worker k of n takes ops k, k+n, k+2n...
class OpenSchedule {
  public:
    explicit OpenSchedule(const Phase& phase);
    // Seconds from the phase start at which op `index` is due; +inf past the phase's end.
    double due_s(uint64_t index) const;

  private:
    double rate_;
    double accel_;  // (rate_to - rate) / (2 * duration): the ramp's quadratic term
};

}  // namespace perflab
