// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include "rng.h"

namespace perflab {

// Zipf-distributed ranks in [1, n] with exponent s: O(1) per draw and no table, so it works
// for key spaces of 1e10 (rejection-inversion, Hörmann & Derflinger 1996).
class ZipfSampler {
  public:
    ZipfSampler(uint64_t n, double s);
    uint64_t sample(Rng& rng) const noexcept;

  private:
    double h(double x) const noexcept;
    double h_integral(double x) const noexcept;
    double h_integral_inverse(double x) const noexcept;

    double n_;
    double s_;
    double h_integral_x1_;
    double h_integral_n_;
    double threshold_;
};

}  // namespace perflab
