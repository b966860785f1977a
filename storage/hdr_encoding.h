// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "model/histogram.h"

namespace perflab::hdr {

// The HdrHistogram every encoded histogram declares itself to be. With 3 significant digits
// HdrHistogram has 2048 sub-buckets (2^ceil(log2(2 * 10^3))) of which the upper 1024 repeat per
// power of two, exact below 2048: the same layout as ours, bucket for bucket, so every one of
// our buckets is exactly one of its buckets and the encoding loses nothing.
constexpr int64_t kLowestDiscernibleValue = 1;
constexpr int64_t kHighestTrackableValue = Histogram::kHighest;
constexpr int kSignificantDigits = 3;

// The index of the HdrHistogram counts array (the parameters above) that holds value v >= 0.
int counts_index(int64_t v) noexcept;

// `h` in HdrHistogram's V2 compressed encoding (AbstractHistogram.encodeIntoCompressedByteBuffer):
// a big-endian cookie and length, then the zlib-deflated V2 encoding, whose counts are ZigZag
// LEB128 words with runs of empty buckets as negative words.
std::string compressed(const Histogram& h);
// What a writer's histogram can tell apart: HdrHistogram's constructor parameters.
struct Layout {
    int significant_digits = kSignificantDigits;
    int64_t lowest_discernible = kLowestDiscernibleValue;
    int64_t sub_buckets() const;  // HdrHistogram's subBucketCount, 2048 for 3 digits
    bool coarser() const;         // than ours: some of its buckets span several of ours
};

// As an imported run's spec keeps it ("imported_from": {"histogram": ...}), which
// hgrm_layout() reads back: significant_digits, lowest_discernible_us, sub_buckets.
nlohmann::json histogram_json(const Layout& layout);

// The other way: a V2 compressed histogram (as HdrHistogram's Java library writes it, with
// any significant digits and lowest value; integer values only), its values recorded as our
// histogram's. In our layout a bucket's lowest value is recorded (our bucket is the same);
// from a coarser one (memtier's: 2 digits from 10 µs, 8 µs wide below 2 ms), its highest
// equivalent value, which is what HdrHistogram itself reports for a percentile, so every
// percentile reads back as the writer printed it. nullopt with `error` set for anything else.
std::optional<Histogram> decompressed(std::string_view bytes, std::string& error,
                                      Layout* layout = nullptr);

}  // namespace perflab::hdr
