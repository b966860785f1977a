// SPDX-License-Identifier: MIT
// Redis' replies, RESP2 and RESP3, as the async driver splits them (resp_codec.h): the input's
// first byte sets the size of the reads the stream arrives in, the rest is the stream. Cut
// anywhere, it must give the replies it gives whole.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "cache/resp_codec.h"
#include "fuzz_target.h"

namespace {

using Seen = std::tuple<perflab::RespType, perflab::RedisError, uint32_t, uint32_t, uint32_t,
                        uint32_t, uint64_t, std::string>;

struct Parsed {
    std::vector<Seen> replies;
    bool ok = true;
};

// Keeps what the parser left unconsumed for the next read, as a connection does.
Parsed parse(std::string_view stream, size_t read_size) {
    perflab::RespParser parser;
    Parsed out;
    std::string pending;
    for (size_t pos = 0; pos < stream.size() && out.ok; pos += read_size) {
        pending += stream.substr(pos, read_size);
        const auto r = parser.feed(pending, [&](const perflab::RespReply& reply) {
            out.replies.emplace_back(reply.type, reply.error, reply.bytes, reply.elements,
                                     reply.values, reply.nulls, reply.value_bytes,
                                     std::string(reply.text));
        });
        out.ok = r.ok;
        pending.erase(0, r.used);
    }
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);
    const Parsed cut = parse(stream, size_t(data[0]) + 1);
    const Parsed whole = parse(stream, stream.size());
    // A line over the parser's limit fails only when a read ends within it.
    if (cut.ok && whole.ok && cut.replies != whole.replies) {
        std::fprintf(stderr, "%zu replies in reads of %d bytes, %zu whole\n", cut.replies.size(),
                     data[0] + 1, whole.replies.size());
        std::abort();
    }
    return 0;
}
