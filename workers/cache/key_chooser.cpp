// SPDX-License-Identifier: MIT
#include "key_chooser.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <numbers>

namespace perflab {

KeyChooser::KeyChooser(const KeySpace& keys, uint64_t seed)
    : distribution_(keys.distribution),
      count_(keys.count),
      mean_(keys.mean.value_or(double(keys.count) / 2)),
      stddev_(keys.stddev.value_or(double(keys.count) / 6)),
      rng_(seed),
      prefix_len_(keys.prefix.size()) {
    if (keys.distribution == KeyDistribution::zipf) zipf_.emplace(keys.count, keys.zipf_s);
    std::memcpy(buffer_.data(), keys.prefix.data(), prefix_len_);
}

uint64_t KeyChooser::draw() noexcept {
    switch (distribution_) {
        case KeyDistribution::zipf:
            return zipf_->sample(rng_) - 1;
        case KeyDistribution::sequential: {
            const uint64_t key = next_;
            next_ = next_ + 1 == count_ ? 0 : next_ + 1;
            return key;
        }
        case KeyDistribution::gaussian:
            return gaussian();
        case KeyDistribution::uniform:
            break;
    }
    return rng_.below(count_);
}

// Box-Muller; a draw outside the key space is drawn again, so the keys near the edges are not
// piled up on the first and last key.
uint64_t KeyChooser::gaussian() noexcept {
    for (;;) {
        const double u = 1.0 - rng_.unit();  // (0, 1]: log(u) is finite
        const double v = rng_.unit();
        const double z = std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
        const double key = std::floor(mean_ + stddev_ * z);
        if (key >= 0 && key < double(count_)) return uint64_t(key);
    }
}

std::string_view KeyChooser::format(uint64_t index) noexcept {
    char* begin = buffer_.data() + prefix_len_;
    const auto [end, ec] = std::to_chars(begin, buffer_.data() + buffer_.size(), index);
    return {buffer_.data(), size_t(end - buffer_.data())};
}

}  // namespace perflab
