// SPDX-License-Identifier: MIT
// Redis' protocol as the async driver speaks it: requests byte for byte, replies (RESP2 and
// RESP3) split in every possible place.
#include "cache/resp_codec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace perflab {
namespace {

std::string text(const OutBuffer& out) {
    return {out.data(), out.size()};
}

TEST(RespCodec, EncodesGetSetAndMget) {
    OutBuffer out(8);  // grows as needed
    resp_encode_get(out, "k:1");
    EXPECT_EQ(text(out), "*2\r\n$3\r\nGET\r\n$3\r\nk:1\r\n");
    out.clear();
    resp_encode_set(out, "k:1", "hello", 3000);
    EXPECT_EQ(text(out),
              "*5\r\n$3\r\nSET\r\n$3\r\nk:1\r\n$5\r\nhello\r\n$2\r\nEX\r\n$4\r\n3000\r\n");
    out.clear();
    resp_encode_set(out, "k:1", "", 0);
    EXPECT_EQ(text(out), "*3\r\n$3\r\nSET\r\n$3\r\nk:1\r\n$0\r\n\r\n");
    out.clear();
    resp_encode_mget_begin(out, 2);
    resp_encode_mget_key(out, "a");
    resp_encode_mget_key(out, "bc");
    EXPECT_EQ(text(out), "*3\r\n$4\r\nMGET\r\n$1\r\na\r\n$2\r\nbc\r\n");
    out.clear();
    resp_encode_command(out, {"HELLO", "3", "AUTH", "u", "p w"});
    EXPECT_EQ(text(out), "*5\r\n$5\r\nHELLO\r\n$1\r\n3\r\n$4\r\nAUTH\r\n$1\r\nu\r\n$3\r\np w\r\n");
}

// What a reply says, as a comparable line.
std::string describe(const RespReply& r) {
    static const char* types[] = {"simple", "error",     "integer", "bulk",
                                  "null",   "aggregate", "scalar"};
    std::string s = types[int(r.type)];
    if (r.type == RespType::bulk) s += " " + std::to_string(r.bytes);
    if (r.type == RespType::aggregate)
        s += " " + std::to_string(r.elements) + "/" + std::to_string(r.values) + "/" +
             std::to_string(r.nulls) + "/" + std::to_string(r.value_bytes);
    if (r.type == RespType::error)
        s += std::string(" ") + kRedisErrorNames[size_t(r.error)] + " " + std::string(r.text);
    if (r.type == RespType::simple) s += " " + std::string(r.text);
    return s;
}

struct Parsed {
    std::vector<std::string> replies;
    bool ok = true;
};

// Feeds the stream in chunks of `chunk` bytes, keeping unconsumed bytes like a connection.
Parsed parse(const std::string& stream, size_t chunk) {
    RespParser parser;
    Parsed out;
    std::string pending;
    for (size_t pos = 0; pos < stream.size() && out.ok; pos += chunk) {
        pending += stream.substr(pos, chunk);
        const auto r = parser.feed(
            pending, [&](const RespReply& reply) { out.replies.push_back(describe(reply)); });
        out.ok = r.ok;
        pending.erase(0, r.used);
    }
    if (!pending.empty()) out.ok = false;
    return out;
}

// Every chunk size from one byte to the whole stream gives the same replies.
void expect_replies(const std::string& stream, const std::vector<std::string>& expected) {
    for (size_t chunk = 1; chunk <= stream.size(); ++chunk) {
        const auto p = parse(stream, chunk);
        ASSERT_TRUE(p.ok) << "chunk " << chunk;
        ASSERT_EQ(p.replies, expected) << "chunk " << chunk;
    }
}

const std::string kValue(300, 'x');

TEST(RespCodec, ParsesResp2RepliesSplitAtEveryByte) {
    expect_replies("$300\r\n" + kValue + "\r\n$-1\r\n+OK\r\n:42\r\n$0\r\n\r\n" +
                       "-WRONGTYPE Operation against a key holding the wrong kind of value\r\n" +
                       "-ERR unknown command 'FOO'\r\n*-1\r\n",
                   {"bulk 300", "null", "simple OK", "integer", "bulk 0",
                    "error WRONGTYPE WRONGTYPE Operation against a key holding the wrong kind "
                    "of value",
                    "error ERR ERR unknown command 'FOO'", "null"});
}

TEST(RespCodec, CountsAnMgetArraysValuesAndNils) {
    // Three values (300, 0 and 2 bytes) and two nils.
    expect_replies("*5\r\n$300\r\n" + kValue + "\r\n$-1\r\n$0\r\n\r\n_\r\n$2\r\nab\r\n*0\r\n",
                   {"aggregate 5/3/2/302", "aggregate 0/0/0/0"});
}

TEST(RespCodec, NestedAggregatesCountOnlyTheTopLevelsElements) {
    // An array holding a nested array (its bulk strings not the reply's values), a map, and
    // a bulk string after them.
    expect_replies(
        "*4\r\n*2\r\n$1\r\na\r\n*1\r\n$1\r\nb\r\n%1\r\n+k\r\n$1\r\nv\r\n$-1\r\n$3\r\n"
        "abc\r\n:1\r\n",
        {"aggregate 4/1/1/3", "integer"});
}

TEST(RespCodec, ParsesResp3Types) {
    // HELLO 3's reply, a map; then null, double, booleans, verbatim, big number, blob error,
    // a set; a push message between replies; an attribute before a reply and one inside an
    // array, which are not elements.
    const std::string hello =
        "%3\r\n$6\r\nserver\r\n$5\r\nredis\r\n$5\r\nproto\r\n:3\r\n$7\r\nmodules\r\n*0\r\n";
    expect_replies(hello +
                       "_\r\n,3.14\r\n#t\r\n#f\r\n=7\r\ntxt:abc\r\n("
                       "3492890328409238509324850943850943825024385\r\n" +
                       "!21\r\nSYNTAX invalid syntax\r\n~2\r\n$1\r\na\r\n$1\r\nb\r\n" +
                       ">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$2\r\nhi\r\n" +
                       "|1\r\n+key-popularity\r\n%1\r\n$1\r\na\r\n,0.19\r\n$2\r\nhi\r\n" +
                       "*3\r\n$1\r\na\r\n|1\r\n+ttl\r\n:3600\r\n_\r\n$2\r\nbc\r\n",
                   {"aggregate 6/4/0/23", "null", "scalar", "scalar", "scalar", "bulk 7", "integer",
                    "error server ", "aggregate 2/2/0/2", "bulk 2", "aggregate 3/2/1/3"});
}

TEST(RespCodec, RefusesWhatIsNotResp) {
    for (const std::string bad :
         {"?\r\n", "OK\r\n", "$abc\r\n", "$-2\r\n", "*-2\r\n", ":1x\r\n", "#x\r\n", "_1\r\n",
          "+OK\n", "$3\r\nabcde\r\n", "$600000000\r\n", "\r\n"}) {
        const auto p = parse(bad, bad.size());
        EXPECT_FALSE(p.ok) << bad;
    }
}

TEST(RespCodec, BoundsLineLengthAndDepth) {
    // A line waited for: fine up to the limit, refused beyond it, complete or not.
    const std::string long_simple = "+" + std::string(RespParser::kMaxLine - 1, 'a');
    EXPECT_TRUE(parse(long_simple + "\r\n", long_simple.size() + 2).ok);
    const std::string too_long = "+" + std::string(RespParser::kMaxLine + 10, 'a');
    EXPECT_FALSE(parse(too_long + "\r\n", too_long.size() + 2).ok);
    RespParser parser;
    EXPECT_FALSE(parser.feed(too_long, [](const RespReply&) {}).ok);
    std::string deep;
    for (size_t i = 0; i <= RespParser::kMaxDepth; ++i)
        deep += "*1\r\n";
    EXPECT_FALSE(parse(deep + ":1\r\n", deep.size() + 4).ok);
    std::string just_deep;
    for (size_t i = 0; i < RespParser::kMaxDepth; ++i)
        just_deep += "*1\r\n";
    const auto p = parse(just_deep + ":1\r\n", 3);
    ASSERT_TRUE(p.ok);
    EXPECT_EQ(p.replies, std::vector<std::string>{"aggregate 1/0/0/0"});
}

TEST(RespCodec, ClassifiesErrorsByTheirFirstWord) {
    EXPECT_EQ(classify_redis_error("ERR unknown command"), RedisError::err);
    EXPECT_EQ(classify_redis_error("WRONGTYPE Operation"), RedisError::wrongtype);
    EXPECT_EQ(classify_redis_error("OOM command not allowed"), RedisError::oom);
    EXPECT_EQ(classify_redis_error("NOAUTH Authentication required."), RedisError::noauth);
    EXPECT_EQ(classify_redis_error("READONLY You can't write"), RedisError::readonly);
    EXPECT_EQ(classify_redis_error("MOVED 3999 127.0.0.1:6381"), RedisError::other);
    EXPECT_EQ(classify_redis_error(""), RedisError::other);
}

}  // namespace
}  // namespace perflab
