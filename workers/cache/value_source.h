// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

#include "model/spec.h"
#include "rng.h"

namespace perflab {

// Values to store: views of one buffer allocated up front, sized uniformly in [min, max].
class ValueSource {
  public:
    explicit ValueSource(const ValueSize& size) : size_(size), buffer_(size.max, 'v') {
        for (size_t i = 0; i < buffer_.size(); ++i)
            buffer_[i] = char('a' + i % 26);
    }

    std::string_view next(Rng& rng) noexcept {
        const uint32_t span = size_.max - size_.min;
        const auto n = size_.min + (span ? uint32_t(rng.below(uint64_t(span) + 1)) : 0);
        return {buffer_.data(), n};
    }

  private:
    ValueSize size_;
    std::string buffer_;
};

}  // namespace perflab
