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

namespace {

uint64_t be(std::string_view b, size_t at, int bytes) {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | uint8_t(b[at + size_t(i)]);
    return v;
}

std::optional<std::string> inflated(std::string_view in) {
    z_stream z{};
    if (inflateInit(&z) != Z_OK) return std::nullopt;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z.avail_in = uInt(in.size());
    std::string out;
    char buffer[16384];
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        rc = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
    }
    inflateEnd(&z);
    if (rc != Z_STREAM_END) return std::nullopt;
    return out;
}

}  // namespace

int64_t Layout::sub_buckets() const {
    int64_t largest_single = 2;
    for (int i = 0; i < significant_digits; ++i)
        largest_single *= 10;
    return int64_t{1} << std::bit_width(uint64_t(largest_single - 1));
}

nlohmann::json histogram_json(const Layout& layout) {
    return {{"significant_digits", layout.significant_digits},
            {"lowest_discernible_us", layout.lowest_discernible},
            {"sub_buckets", layout.sub_buckets()}};
}

bool Layout::coarser() const {
    return sub_buckets() < (int64_t{1} << kSubBucketCountMagnitude) ||
           lowest_discernible > kLowestDiscernibleValue;
}

std::optional<Histogram> decompressed(std::string_view bytes, std::string& error, Layout* layout) {
    if (bytes.size() < 8 || be(bytes, 0, 4) != kCompressedEncodingCookie) {
        error = "not a V2 compressed HdrHistogram";
        return std::nullopt;
    }
    const auto length = size_t(be(bytes, 4, 4));
    if (bytes.size() < 8 + length) {
        error = "a histogram cut short";
        return std::nullopt;
    }
    const auto plain = inflated(bytes.substr(8, length));
    if (!plain || plain->size() < 40 || be(*plain, 0, 4) != kEncodingCookie) {
        error = "a histogram whose compressed data does not inflate to a V2 encoding";
        return std::nullopt;
    }
    const std::string_view p(*plain);
    const auto payload = size_t(be(p, 4, 4));
    const auto digits = int(be(p, 12, 4));
    const auto lowest = int64_t(be(p, 16, 8));
    if (be(p, 8, 4) != 0 || std::bit_cast<double>(be(p, 32, 8)) != 1.0) {
        error = "a shifted or double-valued histogram, which PerfLab does not read";
        return std::nullopt;
    }
    if (digits < 0 || digits > 5 || lowest < 1 || p.size() < 40 + payload) {
        error = "a histogram with a header out of range";
        return std::nullopt;
    }
    // The writer's layout, as HdrHistogram's constructor derives it from its parameters.
    const Layout writer{digits, lowest};
    if (layout) *layout = writer;
    const bool highest = writer.coarser();
    const int count_magnitude = std::bit_width(uint64_t(writer.sub_buckets() - 1));
    const int half_magnitude = std::max(count_magnitude, 1) - 1;
    const int64_t half_count = int64_t{1} << half_magnitude;
    const int unit_magnitude = std::bit_width(uint64_t(lowest)) - 1;
    // Past every value below 2^63 whatever the lowest value: no writer's counts go further.
    const int64_t index_end = int64_t{64} << half_magnitude;
    Histogram h;
    int64_t index = 0;
    size_t at = 40;
    const size_t end = 40 + payload;
    while (at < end) {
        uint64_t v = 0;
        int shift = 0;
        for (int i = 0; i < 9 && at < end; ++i) {
            const auto b = uint8_t(p[at++]);
            if (i == 8) {
                v |= uint64_t(b) << shift;
                break;
            }
            v |= uint64_t(b & 0x7f) << shift;
            shift += 7;
            if (!(b & 0x80)) break;
        }
        const auto word = int64_t(v >> 1) ^ -int64_t(v & 1);
        if (word < 0) {
            // A run of empty buckets, compared without negating the word: -2^63 has no negation.
            if (-(word + 1) >= index_end - index) {
                error = "a run of empty buckets past every value below 2^63";
                return std::nullopt;
            }
            index -= word;
            continue;
        }
        if (word > 0) {
            // HdrHistogram counts in a long: a total past 2^63 - 1 is no histogram's, and a
            // bucket holding that many would encode again as a run of empty buckets.
            if (uint64_t(word) > uint64_t(INT64_MAX) - h.count()) {
                error = "a histogram of more than 2^63 - 1 values";
                return std::nullopt;
            }
            int64_t bucket = (index >> half_magnitude) - 1;
            int64_t sub = (index & (half_count - 1)) + half_count;
            if (bucket < 0) {
                sub -= half_count;
                bucket = 0;
            }
            // The value's bits, not just its shift: 1024 << 53 is already 2^63.
            if (std::bit_width(uint64_t(sub)) + bucket + unit_magnitude > 63) {
                error = "a histogram value beyond 2^63";
                return std::nullopt;
            }
            const int shift = int(bucket) + unit_magnitude;
            // Unsigned: the last value of a bucket ending at 2^63 is 2^63 - 1.
            const uint64_t top = (uint64_t(sub + 1) << shift) - 1;
            h.record_n(highest ? int64_t(top) : sub << shift, uint64_t(word));
        }
        ++index;
    }
    return h;
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
