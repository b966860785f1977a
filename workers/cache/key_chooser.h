// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "model/spec.h"
#include "rng.h"
#include "zipf.h"

namespace perflab {

// Draws keys ("prefix" + number) from the spec's key space into its own buffer: no
// allocation per key. One per worker thread. Sequential keys go 0, 1, ... count-1, 0, ... in
// each thread, as memtier's S pattern does in each client.
class KeyChooser {
  public:
    KeyChooser(const KeySpace& keys, uint64_t seed);

    std::string_view next() noexcept { return format(draw()); }
    uint64_t draw() noexcept;
    std::string_view format(uint64_t index) noexcept;

  private:
    uint64_t gaussian() noexcept;

    KeyDistribution distribution_;
    uint64_t count_;
    uint64_t next_ = 0;  // sequential
    double mean_;        // gaussian
    double stddev_;
    std::optional<ZipfSampler> zipf_;
    Rng rng_;
    std::array<char, 256> buffer_{};
    size_t prefix_len_;
};

}  // namespace perflab
