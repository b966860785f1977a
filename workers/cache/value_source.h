// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/replay_file.h"
#include "model/spec.h"
#include "rng.h"

namespace perflab {

// Values to store: views of one buffer allocated up front, sized uniformly in [min, max] or by
// the spec's weighted sizes, drawn by a stream of their own, so the keys drawn do not depend on
// when a value was wanted. The buffer is a repeating text (compressible) or random bytes.
class ValueSource {
  public:
    // at_least: the largest value sized() is asked for, if above size.max.
    ValueSource(const ValueSize& size, uint64_t seed, uint32_t at_least = 0)
        : size_(size), rng_(seed), buffer_(std::max(size.max, at_least), 'v') {
        for (size_t i = 0; i < buffer_.size(); ++i)
            buffer_[i] = size.random_bytes ? char(rng_.next()) : char('a' + i % 26);
        uint64_t total = 0;
        for (const auto& [bytes, weight] : size.weighted)
            cumulative_.push_back(total += weight);
    }

    std::string_view next() noexcept {
        if (!cumulative_.empty()) {
            const uint64_t at = rng_.below(cumulative_.back());
            const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), at);
            return {buffer_.data(), size_.weighted[size_t(it - cumulative_.begin())].first};
        }
        const uint32_t span = size_.max - size_.min;
        const auto n = size_.min + (span ? uint32_t(rng_.below(uint64_t(span) + 1)) : 0);
        return {buffer_.data(), n};
    }

    std::string_view sized(uint32_t bytes) const noexcept { return {buffer_.data(), bytes}; }

  private:
    ValueSize size_;
    Rng rng_;
    std::string buffer_;
    std::vector<uint64_t> cumulative_;  // running sums of the weights
};

// The largest value a replay sets, which a ValueSource must hold.
inline uint32_t replay_value_bytes(const CacheSpec& cache) {
    return cache.replay && cache.replay->ops ? cache.replay->ops->max_value_bytes() : 0;
}

}  // namespace perflab
