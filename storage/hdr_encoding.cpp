// SPDX-License-Identifier: MIT
#include "hdr_encoding.h"

#include <zlib.h>

#include <bit>
#include <stdexcept>

namespace perflab::hdr {

namespace {

// The low nibble of the cookie's last byte carries the word size; 0x10 flags V2's
// variable-length (ZigZag LEB128) words.
constexpr uint32_t kEncodingCookie = 0x1c849303 | 0x10;
constexpr uint32_t kCompressedEncodingCookie = 0x1c849304 | 0x10;

// HdrHistogram's derived layout, as its constructor computes it from the parameters.
constexpr int64_t kLargestValueWithSingleUnitResolution = 2 * 1000;  // 2 * 10^digits
constexpr int kSubBucketCountMagnitude =
    std::bit_width(uint64_t(kLargestValueWithSingleUnitResolution - 1));  // ceil(log2)
constexpr int kSubBucketHalfCountMagnitude = kSubBucketCountMagnitude - 1;
constexpr int64_t kSubBucketHalfCount = int64_t{1} << kSubBucketHalfCountMagnitude;
constexpr uint64_t kSubBucketMask = (uint64_t{1} << kSubBucketCountMagnitude) - 1;
constexpr int kUnitMagnitude = std::bit_width(uint64_t(kLowestDiscernibleValue)) - 1;
constexpr int kLeadingZeroCountBase = 64 - kUnitMagnitude - kSubBucketCountMagnitude;
static_assert(kSubBucketCountMagnitude == 11, "2048 sub-buckets, as our histogram has");

void put_be32(std::string& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(char(v >> shift));
}

void put_be64(std::string& out, uint64_t v) {
    for (int shift = 56; shift >= 0; shift -= 8)
        out.push_back(char(v >> shift));
}

// ZigZag, then LEB128 of at most 9 bytes: the ninth carries the top 8 bits whole.
void put_word(std::string& out, int64_t value) {
    uint64_t v = (uint64_t(value) << 1) ^ uint64_t(value >> 63);
    for (int i = 0; i < 8 && v >= 0x80; ++i) {
        out.push_back(char((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(char(v));
}

// One empty bucket is written as a count of 0, a longer run as its negated length.
void put_empty(std::string& out, int64_t run) {
    put_word(out, run == 1 ? 0 : -run);
}

std::string payload(const Histogram& h) {
    std::string out;
    int next = 0;  // the first counts index not yet written
    h.for_each_bucket([&](int64_t lowest, int64_t, uint64_t count) {
        const int index = counts_index(lowest);
        if (index > next) put_empty(out, index - next);
        put_word(out, int64_t(count));
        next = index + 1;
    });
    // HdrHistogram writes the counts up to its maximum's bucket, which is index 0 when empty.
    if (h.empty()) put_word(out, 0);
    return out;
}

}  // namespace

int counts_index(int64_t v) noexcept {
    const int bucket = kLeadingZeroCountBase - std::countl_zero(uint64_t(v) | kSubBucketMask);
    const int64_t sub_bucket = v >> (bucket + kUnitMagnitude);
    return int((int64_t(bucket + 1) << kSubBucketHalfCountMagnitude) + sub_bucket -
               kSubBucketHalfCount);
}

std::string compressed(const Histogram& h) {
    const std::string counts = payload(h);
    std::string plain;
    put_be32(plain, kEncodingCookie);
    put_be32(plain, uint32_t(counts.size()));
    put_be32(plain, 0);  // normalizing index offset: the histogram is not shifted
    put_be32(plain, uint32_t(kSignificantDigits));
    put_be64(plain, uint64_t(kLowestDiscernibleValue));
    put_be64(plain, uint64_t(kHighestTrackableValue));
    put_be64(plain, std::bit_cast<uint64_t>(1.0));  // integer to double value conversion ratio
    plain += counts;

    // Java's Deflater writes the zlib format; its log writer asks for the best compression.
    uLongf size = compressBound(uLong(plain.size()));
    std::string deflated(size, '\0');
    if (compress2(reinterpret_cast<Bytef*>(deflated.data()), &size,
                  reinterpret_cast<const Bytef*>(plain.data()), uLong(plain.size()),
                  Z_BEST_COMPRESSION) != Z_OK)
        throw std::runtime_error("zlib could not compress a histogram");
    deflated.resize(size);

    std::string out;
    put_be32(out, kCompressedEncodingCookie);
    put_be32(out, uint32_t(deflated.size()));
    return out + deflated;
}

}  // namespace perflab::hdr
