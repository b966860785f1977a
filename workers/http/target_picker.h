// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace perflab {

// Chooses the next target by weight, nginx's smooth weighted round-robin: over every run of
// sum(weights) picks each target comes up exactly its weight's times, spread out rather than
// in bursts (5:1:1 gives a a b a c a a), the same in every run. Equal weights are plain round
// robin. Allocates only when built; one per worker thread.
class TargetPicker {
  public:
    explicit TargetPicker(std::vector<int64_t> weights)
        : weights_(std::move(weights)), current_(weights_.size(), 0) {
        for (const int64_t w : weights_)
            total_ += w;
    }

    size_t next() noexcept {
        size_t best = 0;
        for (size_t i = 0; i < current_.size(); ++i) {
            current_[i] += weights_[i];
            if (current_[i] > current_[best]) best = i;
        }
        current_[best] -= total_;
        return best;
    }

  private:
    std::vector<int64_t> weights_;
    std::vector<int64_t> current_;
    int64_t total_ = 0;
};

}  // namespace perflab
