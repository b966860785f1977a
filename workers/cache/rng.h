// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>

namespace perflab {

// xoshiro256** seeded through splitmix64: fast, small, good enough for choosing keys and
// sizes; one per worker thread, never shared.
class Rng {
  public:
    explicit Rng(uint64_t seed) {
        for (auto& word : s_)
            word = splitmix(seed);
    }

    uint64_t next() noexcept {
        const uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }

    // Uniform in [0, n) without modulo bias worth speaking of (Lemire's multiply-shift).
    uint64_t below(uint64_t n) noexcept {
        __extension__ using u128 = unsigned __int128;
        return uint64_t((u128(next()) * n) >> 64);
    }

    double unit() noexcept { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)

  private:
    static uint64_t rotl(uint64_t x, int k) noexcept { return (x << k) | (x >> (64 - k)); }
    static uint64_t splitmix(uint64_t& state) noexcept {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    uint64_t s_[4];
};

// A version 4 (random) UUID from `rng`: 8-4-4-4-12 lower-case hex digits, into out[0, 36).
inline constexpr size_t kUuidChars = 36;
inline void format_uuid(char* out, Rng& rng) noexcept {
    static constexpr char kHex[] = "0123456789abcdef";
    const uint64_t hi = (rng.next() & ~uint64_t{0xf000}) | 0x4000;
    const uint64_t lo = (rng.next() & ~(uint64_t{3} << 62)) | (uint64_t{2} << 62);
    size_t at = 0;
    for (int i = 0; i < 32; ++i) {
        if (i == 8 || i == 12 || i == 16 || i == 20) out[at++] = '-';
        const uint64_t word = i < 16 ? hi : lo;
        out[at++] = kHex[(word >> (60 - 4 * (i % 16))) & 0xf];
    }
}

}  // namespace perflab
