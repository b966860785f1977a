// SPDX-License-Identifier: MIT
#include "schedule.h"

#include <cmath>
#include <limits>

namespace perflab {

OpenSchedule::OpenSchedule(const Phase& phase)
    : rate_(phase.rate),
      accel_(phase.rate_to && phase.duration_s > 0
                 ? (*phase.rate_to - phase.rate) / (2 * phase.duration_s)
                 : 0.0) {}

double OpenSchedule::due_s(uint64_t index) const {
    // Solves accel t² + rate t = index; this form stays exact as accel goes to 0.
    const double i = double(index);
    const double disc = rate_ * rate_ + 4 * accel_ * i;
    if (disc < 0) return std::numeric_limits<double>::infinity();
    const double denom = rate_ + std::sqrt(disc);
    if (denom <= 0) return std::numeric_limits<double>::infinity();
    return 2 * i / denom;
}

}  // namespace perflab
