// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "model/spec.h"
#include "rng.h"

namespace perflab {

// Values to store: views of one buffer allocated up front, sized uniformly in [min, max] by a
// stream of their own, so the keys drawn do not depend on when a value was wanted.
class ValueSource {
  public:
    ValueSource(const ValueSize& size, uint64_t seed)
        : size_(size), rng_(seed), buffer_(size.max, 'v') {
        for (size_t i = 0; i < buffer_.size(); ++i)
            buffer_[i] = char('a' + i % 26);
    }

    std::string_view next() noexcept {
        const uint32_t span = size_.max - size_.min;
        const auto n = size_.min + (span ? uint32_t(rng_.below(uint64_t(span) + 1)) : 0);
        return {buffer_.data(), n};
    }

  private:
    ValueSize size_;
    Rng rng_;
    std::string buffer_;
};

}  // namespace perflab
