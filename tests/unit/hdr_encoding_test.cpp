// SPDX-License-Identifier: MIT
// HdrHistogram's V2 encoding: the expected indices and bytes are worked out by hand from
// HdrHistogram's own definitions (AbstractHistogram, ZigZagEncoding), never by our encoder.
#include "hdr_encoding.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>
#include <vector>

namespace perflab {
namespace {

using Bytes = std::vector<unsigned char>;

Bytes bytes_of(const std::string& s) {
    return Bytes(s.begin(), s.end());
}

uint32_t be32(const Bytes& b, size_t at) {
    return uint32_t(b[at]) << 24 | uint32_t(b[at + 1]) << 16 | uint32_t(b[at + 2]) << 8 |
           uint32_t(b[at + 3]);
}

// The compressed form's two words, and what its zlib stream inflates to.
struct Decoded {
    uint32_t cookie = 0;
    uint32_t deflated_length = 0;
    Bytes plain;
};

Decoded decode(const std::string& encoded) {
    const Bytes b = bytes_of(encoded);
    Decoded d;
    d.cookie = be32(b, 0);
    d.deflated_length = be32(b, 4);
    EXPECT_EQ(d.deflated_length, b.size() - 8);
    d.plain.resize(1 << 16);
    uLongf size = uLongf(d.plain.size());
    EXPECT_EQ(uncompress(d.plain.data(), &size, b.data() + 8, uLong(b.size() - 8)), Z_OK);
    d.plain.resize(size);
    return d;
}

// Cookie 0x1c849313, payload length, index offset 0, 3 digits, lowest 1, highest
// 3'600'000'000 (0xd693a400), conversion ratio 1.0 (IEEE 754 0x3ff0...).
Bytes header(uint32_t payload_length) {
    Bytes h = {0x1c, 0x84, 0x93, 0x13};
    for (int shift = 24; shift >= 0; shift -= 8)
        h.push_back((unsigned char)(payload_length >> shift));
    const Bytes rest = {0, 0, 0, 0, 0,    0,    0,    3, 0,    0,    0, 0, 0, 0, 0, 1,
                        0, 0, 0, 0, 0xd6, 0x93, 0xa4, 0, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0};
    h.insert(h.end(), rest.begin(), rest.end());
    return h;
}

Bytes concat(Bytes a, const Bytes& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

TEST(HdrEncoding, IndicesAreHdrHistogramsForThreeDigits) {
    // Bucket 0 holds 0..2047 exactly; bucket k >= 1 starts at index (k + 1) * 1024.
    EXPECT_EQ(hdr::counts_index(0), 0);
    EXPECT_EQ(hdr::counts_index(2047), 2047);
    EXPECT_EQ(hdr::counts_index(2048), 2048);
    EXPECT_EQ(hdr::counts_index(2049), 2048);
    EXPECT_EQ(hdr::counts_index(4095), 3071);
    EXPECT_EQ(hdr::counts_index(4096), 3072);
    EXPECT_EQ(hdr::counts_index(5000), 3298);  // bucket 2: 3072 + (5000 >> 2) - 1024
    // bucket 21: 22528 + (3.6e9 >> 21 = 1716) - 1024; the Java array has 23 * 1024 slots.
    EXPECT_EQ(hdr::counts_index(3'600'000'000), 23220);
}

TEST(HdrEncoding, EachOfOurBucketsIsExactlyOneOfHdrHistograms) {
    Histogram h;
    for (int64_t v = 0; v < (int64_t{1} << 22); ++v)
        h.record(v);
    for (int64_t v = Histogram::kHighest - (int64_t{1} << 22); v <= Histogram::kHighest; ++v)
        h.record(v);
    int previous = -1;
    int64_t previous_highest = -1;
    h.for_each_bucket([&](int64_t lowest, int64_t highest, uint64_t) {
        const int index = hdr::counts_index(lowest);
        ASSERT_EQ(hdr::counts_index(highest), index) << lowest << ".." << highest;
        if (lowest == previous_highest + 1) {
            ASSERT_EQ(index, previous + 1) << lowest;
            // Nothing in between: the next value starts HdrHistogram's next bucket too.
            ASSERT_EQ(hdr::counts_index(highest + 1), index + 1) << highest;
        }
        previous = index;
        previous_highest = highest;
    });
    EXPECT_EQ(previous, 23220);
}

TEST(HdrEncoding, CountsAndRunsOfEmptyBuckets) {
    Histogram h;
    h.record(1);
    h.record_n(5000, 3);
    const Decoded d = decode(hdr::compressed(h));
    EXPECT_EQ(d.cookie, 0x1c849314u);
    // index 0 empty: a count of 0; index 1: 1 (zigzag 2); indices 2..3297 empty: -3296
    // (zigzag 6591 = LEB128 0xbf 0x33); index 3298: 3 (zigzag 6).
    EXPECT_EQ(d.plain, concat(header(5), {0x00, 0x02, 0xbf, 0x33, 0x06}));
}

TEST(HdrEncoding, EmptyHistogramIsOneEmptyBucket) {
    const Decoded d = decode(hdr::compressed(Histogram()));
    EXPECT_EQ(d.plain, concat(header(1), {0x00}));
}

TEST(HdrEncoding, NinthLeb128ByteCarriesEightBits) {
    Histogram h;
    h.record_n(0, uint64_t{1} << 62);  // zigzag 2^63: eight 0x80 bytes, then 0x80 whole
    const Decoded d = decode(hdr::compressed(h));
    EXPECT_EQ(d.plain, concat(header(9), Bytes(9, 0x80)));
}

// The compressed form of a V2 encoding (the header above) whose counts are `payload`.
std::string compressed_counts(const Bytes& payload) {
    const Bytes plain = concat(header(uint32_t(payload.size())), payload);
    uLongf size = compressBound(uLong(plain.size()));
    Bytes deflated(size);
    EXPECT_EQ(compress2(deflated.data(), &size, plain.data(), uLong(plain.size()), 9), Z_OK);
    deflated.resize(size);
    Bytes out = {0x1c, 0x84, 0x93, 0x14};
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back((unsigned char)(size >> shift));
    out = concat(out, deflated);
    return std::string(out.begin(), out.end());
}

// Found by tests/fuzz/hdr_decompress: what does not fit an int64 read as something else.
TEST(HdrEncoding, DecompressionRefusesWhatExceedsInt64) {
    std::string error;
    // Index 54272 (bucket 52): 1024 << 52 = 2^62, clamped to our highest. Empty buckets
    // 0..54271 are zigzag 108543 (LEB128 0xff 0xcf 0x06), then a count of 1.
    const auto below = hdr::decompressed(compressed_counts({0xff, 0xcf, 0x06, 0x02}), error);
    ASSERT_TRUE(below) << error;
    EXPECT_EQ(below->count(), 1u);
    EXPECT_EQ(below->max(), Histogram::kHighest);
    // Index 55296 (bucket 53): 1024 << 53 = 2^63, which wrapped to a negative value and read
    // as 0 µs. Empty buckets 0..55295: zigzag 110591 (0xff 0xdf 0x06).
    EXPECT_FALSE(hdr::decompressed(compressed_counts({0xff, 0xdf, 0x06, 0x02}), error));
    EXPECT_EQ(error, "a histogram value beyond 2^63");
    // A run of 2^63 empty buckets (nine bytes of 0xff, zigzag 2^64 - 1) overflowed the index.
    EXPECT_FALSE(hdr::decompressed(compressed_counts(concat(Bytes(9, 0xff), {0x02})), error));
    EXPECT_EQ(error, "a run of empty buckets past every value below 2^63");
    // Two counts of 2^62 (zigzag 2^63: eight 0x80 bytes, then 0x80 whole): 2^63 values in all
    // overflowed a bucket's count as the encoder writes it.
    EXPECT_FALSE(hdr::decompressed(compressed_counts(Bytes(18, 0x80)), error));
    EXPECT_EQ(error, "a histogram of more than 2^63 - 1 values");
}

}  // namespace
}  // namespace perflab
