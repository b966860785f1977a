// SPDX-License-Identifier: MIT
#include "run_seed.h"

#include <random>

namespace perflab {

namespace {

constexpr uint64_t kMaxDrawn = (uint64_t{1} << 53) - 1;

// splitmix64's finaliser: every input bit reaches every output bit.
uint64_t mix(uint64_t z) noexcept {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace

RunSpec with_seed(RunSpec spec) {
    if (!spec.seed) {
        std::random_device device;
        spec.seed = ((uint64_t(device()) << 32) ^ device()) & kMaxDrawn;
    }
    return spec;
}

uint64_t stream_seed(uint64_t run_seed, uint64_t owner, Stream stream) noexcept {
    constexpr uint64_t kGolden = 0x9e3779b97f4a7c15ULL;
    return mix(mix(run_seed + kGolden) ^ mix(owner * kGolden + uint64_t(stream)));
}

}  // namespace perflab
