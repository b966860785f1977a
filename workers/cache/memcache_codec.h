// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "model/spec.h"

namespace perflab {

// Bytes waiting to be written: allocated once, reused for every batch of requests.
class OutBuffer {
  public:
    explicit OutBuffer(size_t capacity) : data_(new char[capacity]), capacity_(capacity) {}

    const char* data() const noexcept { return data_.get(); }
    size_t size() const noexcept { return size_; }
    bool empty() const noexcept { return size_ == 0; }
    void clear() noexcept { size_ = 0; }
    void append(std::string_view bytes);
    void append_number(uint64_t n);

  private:
    void reserve(size_t capacity);

    std::unique_ptr<char[]> data_;
    size_t capacity_;
    size_t size_ = 0;
};

// Requests in memcached's text protocol ("get", "set") or meta protocol ("mg", "ms").
void encode_get(OutBuffer& out, CacheProtocol protocol, std::string_view key);
void encode_set(OutBuffer& out, CacheProtocol protocol, std::string_view key,
                std::string_view value, uint32_t ttl_s);

// One request for several keys (memtier's and libmemcached's multi-get): text
// "get k1 k2 ...\r\n"; meta an "mg KEY v" per key, then "mn", whose "MN" marks the end.
void encode_mget_begin(OutBuffer& out, CacheProtocol protocol);
void encode_mget_key(OutBuffer& out, CacheProtocol protocol, std::string_view key);
void encode_mget_end(OutBuffer& out, CacheProtocol protocol);

// A text get's reply is its values, then END: the last value (or the END alone) comes as
// hit (miss), each value before it as `value`. `end` is the meta "MN".
enum class ReplyKind { hit, miss, stored, not_stored, error, value, end };

struct Reply {
    ReplyKind kind = ReplyKind::error;
    uint32_t value_bytes = 0;  // hit: the value's length
};

// Splits a stream of replies (in either protocol) into Reply values without copying: lines
// are read in place, values are skipped over as they arrive, whatever their size.
class ReplyParser {
  public:
    struct Result {
        size_t used = 0;  // bytes consumed; the rest starts an incomplete line: feed it again
        bool ok = true;   // false: the stream is not memcached's, drop the connection
    };

    // Calls on_reply(const Reply&) for every reply completed by `data`.
    template <class F>
    Result feed(std::string_view data, F&& on_reply);

    void reset() noexcept { *this = ReplyParser(); }

  private:
    enum class Line { reply, value, bad };
    Line parse_line(std::string_view line, Reply& out) noexcept;
    bool start_value(std::string_view line, bool text) noexcept;

    uint64_t skip_ = 0;           // value bytes (and their "\r\n") still to pass over
    bool value_pending_ = false;  // a value was skipped: its reply ends at the next line (text)
    bool end_after_value_ = false;
    uint32_t value_bytes_ = 0;
};

template <class F>
ReplyParser::Result ReplyParser::feed(std::string_view data, F&& on_reply) {
    // Longest reply line worth waiting for; anything longer is not memcached talking.
    constexpr size_t kMaxLine = 2048;
    size_t pos = 0;
    while (pos < data.size()) {
        if (skip_ > 0) {
            const size_t n = size_t(std::min<uint64_t>(skip_, data.size() - pos));
            skip_ -= n;
            pos += n;
            if (skip_ == 0 && !end_after_value_) on_reply(Reply{ReplyKind::hit, value_bytes_});
            continue;
        }
        const size_t eol = data.find('\n', pos);
        if (eol == std::string_view::npos) return {pos, data.size() - pos <= kMaxLine};
        size_t end = eol;
        if (end > pos && data[end - 1] == '\r') --end;
        Reply reply;
        const Line kind = parse_line(data.substr(pos, end - pos), reply);
        pos = eol + 1;
        if (kind == Line::bad) return {pos, false};
        if (kind == Line::reply) on_reply(reply);
    }
    return {pos, true};
}

}  // namespace perflab
