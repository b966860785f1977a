// SPDX-License-Identifier: MIT
// The async driver's codec: requests byte for byte, replies split in every possible place.
#include "cache/memcache_codec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace perflab {
namespace {

std::string encoded(CacheProtocol p, bool set) {
    OutBuffer out(8);  // grows as needed
    if (set)
        encode_set(out, p, "k:1", "hello", 30);
    else
        encode_get(out, p, "k:1");
    return {out.data(), out.size()};
}

TEST(MemcacheCodec, EncodesTextAndMetaRequests) {
    EXPECT_EQ(encoded(CacheProtocol::text, false), "get k:1\r\n");
    EXPECT_EQ(encoded(CacheProtocol::text, true), "set k:1 0 30 5\r\nhello\r\n");
    EXPECT_EQ(encoded(CacheProtocol::meta, false), "mg k:1 v\r\n");
    EXPECT_EQ(encoded(CacheProtocol::meta, true), "ms k:1 5 T30\r\nhello\r\n");
}

struct Parsed {
    std::vector<Reply> replies;
    bool ok = true;
};

// Feeds the stream in chunks of `chunk` bytes, keeping unconsumed bytes like a connection.
Parsed parse(const std::string& stream, size_t chunk) {
    ReplyParser parser;
    Parsed out;
    std::string pending;
    for (size_t pos = 0; pos < stream.size() && out.ok; pos += chunk) {
        pending += stream.substr(pos, chunk);
        const auto r =
            parser.feed(pending, [&](const Reply& reply) { out.replies.push_back(reply); });
        out.ok = r.ok;
        pending.erase(0, r.used);
    }
    if (!pending.empty()) out.ok = false;
    return out;
}

const std::string kValue(3000, 'x');

TEST(MemcacheCodec, ParsesTextRepliesSplitAnywhere) {
    const std::string stream =
        "VALUE k:1 0 3000\r\n" + kValue +
        "\r\nEND\r\nEND\r\nSTORED\r\nNOT_STORED\r\n"
        "SERVER_ERROR out of memory storing object\r\nVALUE k:2 7 0\r\n\r\nEND\r\n";
    for (size_t chunk : {size_t(1), size_t(2), size_t(7), size_t(100), stream.size()}) {
        const auto p = parse(stream, chunk);
        ASSERT_TRUE(p.ok) << "chunk " << chunk;
        ASSERT_EQ(p.replies.size(), 6u) << "chunk " << chunk;
        EXPECT_EQ(p.replies[0].kind, ReplyKind::hit);
        EXPECT_EQ(p.replies[0].value_bytes, 3000u);
        EXPECT_EQ(p.replies[1].kind, ReplyKind::miss);
        EXPECT_EQ(p.replies[2].kind, ReplyKind::stored);
        EXPECT_EQ(p.replies[3].kind, ReplyKind::not_stored);
        EXPECT_EQ(p.replies[4].kind, ReplyKind::error);
        EXPECT_EQ(p.replies[5].kind, ReplyKind::hit);
        EXPECT_EQ(p.replies[5].value_bytes, 0u);
    }
}

TEST(MemcacheCodec, ParsesMetaRepliesSplitAnywhere) {
    const std::string stream =
        "VA 3000 f0\r\n" + kValue + "\r\nEN\r\nHD\r\nNS\r\nCLIENT_ERROR bad\r\nVA 2\r\nab\r\n";
    for (size_t chunk : {size_t(1), size_t(3), size_t(64), stream.size()}) {
        const auto p = parse(stream, chunk);
        ASSERT_TRUE(p.ok) << "chunk " << chunk;
        ASSERT_EQ(p.replies.size(), 6u) << "chunk " << chunk;
        EXPECT_EQ(p.replies[0].kind, ReplyKind::hit);
        EXPECT_EQ(p.replies[0].value_bytes, 3000u);
        EXPECT_EQ(p.replies[1].kind, ReplyKind::miss);
        EXPECT_EQ(p.replies[2].kind, ReplyKind::stored);
        EXPECT_EQ(p.replies[3].kind, ReplyKind::not_stored);
        EXPECT_EQ(p.replies[4].kind, ReplyKind::error);
        EXPECT_EQ(p.replies[5].kind, ReplyKind::hit);
        EXPECT_EQ(p.replies[5].value_bytes, 2u);
    }
}

std::string encoded_batch(CacheProtocol p) {
    OutBuffer out(8);
    encode_mget_begin(out, p);
    for (const char* key : {"k:1", "k:2", "k:3"})
        encode_mget_key(out, p, key);
    encode_mget_end(out, p);
    return {out.data(), out.size()};
}

TEST(MemcacheCodec, EncodesMultiGets) {
    EXPECT_EQ(encoded_batch(CacheProtocol::text), "get k:1 k:2 k:3\r\n");
    EXPECT_EQ(encoded_batch(CacheProtocol::meta), "mg k:1 v\r\nmg k:2 v\r\nmg k:3 v\r\nmn\r\n");
}

TEST(MemcacheCodec, ParsesMultiValueRepliesSplitAnywhere) {
    const std::string text = "VALUE k:1 0 3000\r\n" + kValue +
                             "\r\nVALUE k:3 0 2\r\nab\r\nVALUE k:4 0 1\r\nc\r\nEND\r\n";
    const std::string meta = "VA 3000\r\n" + kValue + "\r\nEN\r\nVA 2\r\nab\r\nMN\r\n";
    for (size_t chunk : {size_t(1), size_t(5), size_t(100), text.size()}) {
        const auto t = parse(text, chunk);
        ASSERT_TRUE(t.ok) << "chunk " << chunk;
        ASSERT_EQ(t.replies.size(), 3u) << "chunk " << chunk;
        EXPECT_EQ(t.replies[0].kind, ReplyKind::value);
        EXPECT_EQ(t.replies[0].value_bytes, 3000u);
        EXPECT_EQ(t.replies[1].kind, ReplyKind::value);
        EXPECT_EQ(t.replies[1].value_bytes, 2u);
        EXPECT_EQ(t.replies[2].kind, ReplyKind::hit);
        EXPECT_EQ(t.replies[2].value_bytes, 1u);
        const auto m = parse(meta, chunk);
        ASSERT_TRUE(m.ok) << "chunk " << chunk;
        ASSERT_EQ(m.replies.size(), 4u) << "chunk " << chunk;
        EXPECT_EQ(m.replies[0].kind, ReplyKind::hit);
        EXPECT_EQ(m.replies[1].kind, ReplyKind::miss);
        EXPECT_EQ(m.replies[2].kind, ReplyKind::hit);
        EXPECT_EQ(m.replies[3].kind, ReplyKind::end);
    }
}

TEST(MemcacheCodec, RejectsWhatIsNotMemcached) {
    EXPECT_FALSE(parse("HTTP/1.1 200 OK\r\n", 4).ok);
    EXPECT_FALSE(parse("VALUE k 0 notanumber\r\n", 64).ok);
    EXPECT_FALSE(parse("VALUE k 0 1\r\nx\r\nSTORED\r\n", 64).ok);  // a text hit ends with END
    EXPECT_FALSE(parse(std::string(5000, 'a'), 4096).ok);          // no line end in sight
}

}  // namespace
}  // namespace perflab
