// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
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
// The other way: a V2 compressed histogram (as HdrHistogram's Java library writes it, with
// any significant digits and lowest value; integer values only), its values recorded as our
// histogram's. nullopt with `error` set for anything else.
std::optional<Histogram> decompressed(std::string_view bytes, std::string& error);

}  // namespace perflab::hdr
