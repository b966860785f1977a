// SPDX-License-Identifier: MIT
#pragma once

// Redis' protocol, RESP2 and RESP3: requests are arrays of bulk strings, written into the
// connection's OutBuffer; replies are split by RespParser as they arrive.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>

#include "memcache_codec.h"

namespace perflab {

// GET key; SET key value [EX ttl] (no EX for a ttl of 0: the key does not expire).
void resp_encode_get(OutBuffer& out, std::string_view key);
void resp_encode_set(OutBuffer& out, std::string_view key, std::string_view value, uint32_t ttl_s);
// MGET key...: the count first, as RESP puts an array's length before its elements.
void resp_encode_mget_begin(OutBuffer& out, uint32_t keys);
void resp_encode_mget_key(OutBuffer& out, std::string_view key);
// Any command (the handshake's HELLO, AUTH, SELECT).
void resp_encode_command(OutBuffer& out, std::initializer_list<std::string_view> args);

enum class RespType : uint8_t {
    simple,     // +
    error,      // - and RESP3's ! (blob error)
    integer,    // : and RESP3's ( (big number)
    bulk,       // $ and RESP3's = (verbatim)
    null,       // $-1, *-1 and RESP3's _
    aggregate,  // * and RESP3's % (map), ~ (set)
    scalar,     // RESP3's , (double) and # (boolean)
};

// An error reply's kind: its first word, for the ones a cache run meets. Any other counts as
// "server", as memcached's error replies do.
enum class RedisError : uint8_t { err, wrongtype, oom, noauth, busy, loading, readonly, other };
inline constexpr std::array<const char*, 8> kRedisErrorNames = {
    "ERR", "WRONGTYPE", "OOM", "NOAUTH", "BUSY", "LOADING", "READONLY", "server"};
RedisError classify_redis_error(std::string_view text) noexcept;

// One reply, as a whole. An aggregate's direct elements are counted (an MGET's values and
// nils); what is nested deeper is passed over.
struct RespReply {
    RespType type = RespType::simple;
    RedisError error = RedisError::other;  // error: its kind
    uint32_t bytes = 0;                    // bulk: its length
    uint32_t elements = 0;                 // aggregate: its elements (a map's keys and values)
    uint32_t values = 0;                   // ... of which bulk strings
    uint32_t nulls = 0;                    // ... of which nulls
    uint64_t value_bytes = 0;              // the bulk strings' bytes
    // simple, error (not a blob error): the line after its type byte; valid in the callback.
    std::string_view text;
};

// Splits a stream of RESP replies without copying: lines are read in place, bulk strings are
// skipped as they arrive, whatever their size. RESP3's push messages (>) are not replies and
// are passed over, as are attributes (|), which only annotate the reply after them.
class RespParser {
  public:
    struct Result {
        size_t used = 0;  // bytes consumed; the rest starts an incomplete line: feed it again
        bool ok = true;   // false: the stream is not RESP, drop the connection
    };
    // Longest line (without its "\r\n") worth waiting for: an error's text, a number;
    // anything longer is not a server talking RESP.
    static constexpr size_t kMaxLine = 4096;
    // Deepest nesting followed; RESP replies to the commands a run sends nest two deep.
    static constexpr size_t kMaxDepth = 32;

    // Calls on_reply(const RespReply&) for every reply completed by `data`.
    template <class F>
    Result feed(std::string_view data, F&& on_reply);

    void reset() noexcept { *this = RespParser(); }

  private:
    enum class Frame : uint8_t { counted, push, attribute };
    enum class Step { more, reply, bad };
    struct Level {
        uint64_t left = 0;  // elements still to come
        Frame kind = Frame::counted;
    };

    Step parse_line(std::string_view line) noexcept;
    Step start_bulk(std::string_view length, RespType type) noexcept;
    Step start_aggregate(std::string_view length, Frame kind, uint64_t per_entry) noexcept;
    Step element(RespType type, uint32_t bytes, std::string_view text) noexcept;
    Step bulk_done() noexcept { return element(bulk_type_, bulk_bytes_, {}); }

    std::array<Level, kMaxDepth> stack_{};
    size_t depth_ = 0;
    uint64_t skip_ = 0;  // bulk bytes still to pass over
    int crlf_ = 0;       // bytes of the bulk's closing "\r\n" still to come
    RespType bulk_type_ = RespType::bulk;
    uint32_t bulk_bytes_ = 0;
    RespReply reply_;
};

template <class F>
RespParser::Result RespParser::feed(std::string_view data, F&& on_reply) {
    size_t pos = 0;
    while (pos < data.size()) {
        if (skip_ > 0) {
            const size_t n = size_t(std::min<uint64_t>(skip_, data.size() - pos));
            skip_ -= n;
            pos += n;
            continue;
        }
        if (crlf_ > 0) {
            if (data[pos++] != (crlf_ == 2 ? '\r' : '\n')) return {pos, false};
            if (--crlf_ > 0) continue;
            const Step step = bulk_done();
            if (step == Step::bad) return {pos, false};
            if (step == Step::reply) on_reply(std::as_const(reply_));
            continue;
        }
        const size_t eol = data.find('\n', pos);
        if (eol == std::string_view::npos) return {pos, data.size() - pos <= kMaxLine + 1};
        if (eol == pos || data[eol - 1] != '\r' || eol - 1 - pos > kMaxLine) return {pos, false};
        const std::string_view line = data.substr(pos, eol - 1 - pos);
        pos = eol + 1;
        const Step step = parse_line(line);
        if (step == Step::bad) return {pos, false};
        if (step == Step::reply) on_reply(std::as_const(reply_));
    }
    return {pos, true};
}

}  // namespace perflab
