// SPDX-License-Identifier: MIT
// HdrHistogram's V2 compressed encoding (an .hlog line's, memtier's) on any bytes: a
// histogram, or nullopt with the reason. One it accepts must survive our own encoding: the
// same buckets with the same counts.
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "fuzz_target.h"
#include "hdr_encoding.h"

namespace {

using Buckets = std::vector<std::tuple<int64_t, int64_t, uint64_t>>;

Buckets buckets_of(const perflab::Histogram& h) {
    Buckets out;
    h.for_each_bucket([&](int64_t lo, int64_t hi, uint64_t n) { out.emplace_back(lo, hi, n); });
    return out;
}

// Mutated deflate streams seldom inflate, which would leave the V2 decoder behind them
// unexplored: an input whose first byte is odd holds the inflated encoding, deflated here.
std::string compressed(std::string_view plain) {
    uLongf size = compressBound(uLong(plain.size()));
    std::string deflated(size, '\0');
    compress2(reinterpret_cast<Bytef*>(deflated.data()), &size,
              reinterpret_cast<const Bytef*>(plain.data()), uLong(plain.size()), 1);
    deflated.resize(size);
    std::string out = {'\x1c', '\x84', '\x93', '\x14'};  // the compressed encoding's cookie
    for (int shift = 24; shift >= 0; shift -= 8)
        out.push_back(char(size >> shift));
    return out + deflated;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
    const std::string bytes = data[0] & 1 ? compressed(rest) : std::string(rest);
    std::string error;
    const auto h = perflab::hdr::decompressed(bytes, error);
    if (!h) {
        if (error.empty()) std::abort();  // a refusal always says why
        return 0;
    }
    h->percentile(99.9);
    std::string again_error;
    const auto again = perflab::hdr::decompressed(perflab::hdr::compressed(*h), again_error);
    if (!again || again->count() != h->count() || buckets_of(*again) != buckets_of(*h)) {
        std::fprintf(stderr, "a decompressed histogram does not survive compressed(): %s\n",
                     again_error.c_str());
        std::abort();
    }
    return 0;
}
