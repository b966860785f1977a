// SPDX-License-Identifier: MIT
#include "zipf.h"

#include <algorithm>
#include <cmath>

namespace perflab {

namespace {

// log1p(x)/x and expm1(x)/x, continuous through x = 0.
double log1p_over_x(double x) noexcept {
    if (std::abs(x) > 1e-8) return std::log1p(x) / x;
    return 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

double expm1_over_x(double x) noexcept {
    if (std::abs(x) > 1e-8) return std::expm1(x) / x;
    return 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

}  // namespace

ZipfSampler::ZipfSampler(uint64_t n, double s)
    : n_(double(n)),
      s_(s),
      h_integral_x1_(h_integral(1.5) - 1),
      h_integral_n_(h_integral(double(n) + 0.5)),
      threshold_(2 - h_integral_inverse(h_integral(2.5) - h(2))) {}

double ZipfSampler::h(double x) const noexcept {
    return std::exp(-s_ * std::log(x));
}

double ZipfSampler::h_integral(double x) const noexcept {
    const double log_x = std::log(x);
    return expm1_over_x((1 - s_) * log_x) * log_x;
}

double ZipfSampler::h_integral_inverse(double x) const noexcept {
    const double t = std::max(-1.0, x * (1 - s_));
    return std::exp(log1p_over_x(t) * x);
}

uint64_t ZipfSampler::sample(Rng& rng) const noexcept {
    for (;;) {
        const double u = h_integral_n_ + rng.unit() * (h_integral_x1_ - h_integral_n_);
        const double x = h_integral_inverse(u);
        const double k = std::clamp(std::floor(x + 0.5), 1.0, n_);
        if (k - x <= threshold_ || u >= h_integral(k + 0.5) - h(k)) return uint64_t(k);
    }
}

}  // namespace perflab
