// SPDX-License-Identifier: MIT
#include "resp_codec.h"

#include <charconv>

namespace perflab {

namespace {

// Redis' own limit on a bulk string (proto-max-bulk-len's default).
constexpr uint64_t kMaxBulk = 512ull << 20;
// Elements of one aggregate; far more than any reply to a run's commands.
constexpr int64_t kMaxElements = int64_t(1) << 30;

void append_bulk(OutBuffer& out, std::string_view arg) {
    out.append("$");
    out.append_number(arg.size());
    out.append("\r\n");
    out.append(arg);
    out.append("\r\n");
}

void append_count(OutBuffer& out, uint64_t n) {
    out.append("*");
    out.append_number(n);
    out.append("\r\n");
}

bool to_i64(std::string_view s, int64_t& out) noexcept {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

}  // namespace

void resp_encode_get(OutBuffer& out, std::string_view key) {
    out.append("*2\r\n$3\r\nGET\r\n");
    append_bulk(out, key);
}

void resp_encode_set(OutBuffer& out, std::string_view key, std::string_view value, uint32_t ttl_s) {
    out.append(ttl_s ? "*5\r\n$3\r\nSET\r\n" : "*3\r\n$3\r\nSET\r\n");
    append_bulk(out, key);
    append_bulk(out, value);
    if (ttl_s == 0) return;
    out.append("$2\r\nEX\r\n");
    char digits[10];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, ttl_s);
    append_bulk(out, {digits, size_t(end - digits)});
}

void resp_encode_mget_begin(OutBuffer& out, uint32_t keys) {
    append_count(out, uint64_t(keys) + 1);
    out.append("$4\r\nMGET\r\n");
}

void resp_encode_mget_key(OutBuffer& out, std::string_view key) {
    append_bulk(out, key);
}

void resp_encode_command(OutBuffer& out, std::initializer_list<std::string_view> args) {
    append_count(out, args.size());
    for (const auto arg : args)
        append_bulk(out, arg);
}

RedisError classify_redis_error(std::string_view text) noexcept {
    const std::string_view word = text.substr(0, text.find(' '));
    for (size_t i = 0; i + 1 < kRedisErrorNames.size(); ++i)
        if (word == kRedisErrorNames[i]) return RedisError(i);
    return RedisError::other;
}

RespParser::Step RespParser::parse_line(std::string_view line) noexcept {
    if (line.empty()) return Step::bad;
    const std::string_view rest = line.substr(1);
    int64_t n = 0;
    switch (line[0]) {
        case '+':
            return element(RespType::simple, 0, rest);
        case '-':
            return element(RespType::error, 0, rest);
        case ':':
            return to_i64(rest, n) ? element(RespType::integer, 0, {}) : Step::bad;
        case '(':
            return rest.empty() ? Step::bad : element(RespType::integer, 0, {});
        case ',':
            return rest.empty() ? Step::bad : element(RespType::scalar, 0, {});
        case '#':
            return rest == "t" || rest == "f" ? element(RespType::scalar, 0, {}) : Step::bad;
        case '_':
            return rest.empty() ? element(RespType::null, 0, {}) : Step::bad;
        case '$':
        case '=':
            return start_bulk(rest, RespType::bulk);
        case '!':
            return start_bulk(rest, RespType::error);
        case '*':
        case '~':
            return start_aggregate(rest, Frame::counted, 1);
        case '%':
            return start_aggregate(rest, Frame::counted, 2);
        case '>':
            return start_aggregate(rest, Frame::push, 1);
        case '|':
            return start_aggregate(rest, Frame::attribute, 2);
        default:
            return Step::bad;
    }
}

RespParser::Step RespParser::start_bulk(std::string_view length, RespType type) noexcept {
    int64_t n = 0;
    if (!to_i64(length, n)) return Step::bad;
    // RESP2's nil bulk string.
    if (n == -1 && type == RespType::bulk) return element(RespType::null, 0, {});
    if (n < 0 || uint64_t(n) > kMaxBulk) return Step::bad;
    bulk_type_ = type;
    bulk_bytes_ = uint32_t(n);
    skip_ = uint64_t(n);
    crlf_ = 2;
    return Step::more;
}

RespParser::Step RespParser::start_aggregate(std::string_view length, Frame kind,
                                             uint64_t per_entry) noexcept {
    int64_t n = 0;
    if (!to_i64(length, n)) return Step::bad;
    // RESP2's nil array.
    if (n == -1 && kind == Frame::counted) return element(RespType::null, 0, {});
    if (n < 0 || n > kMaxElements) return Step::bad;
    if (depth_ == 0) reply_ = RespReply{};
    if (n == 0) return kind == Frame::counted ? element(RespType::aggregate, 0, {}) : Step::more;
    if (depth_ == kMaxDepth) return Step::bad;
    stack_[depth_++] = {uint64_t(n) * per_entry, kind};
    return Step::more;
}

// A complete element: the reply itself at the top, else one more of its aggregate's, which
// may complete that aggregate in turn.
RespParser::Step RespParser::element(RespType type, uint32_t bytes,
                                     std::string_view text) noexcept {
    for (;;) {
        if (depth_ == 0) {
            if (type != RespType::aggregate) reply_ = RespReply{};
            reply_.type = type;
            reply_.bytes = bytes;
            reply_.text = text;
            if (type == RespType::error) reply_.error = classify_redis_error(text);
            return Step::reply;
        }
        Level& top = stack_[depth_ - 1];
        if (depth_ == 1 && top.kind == Frame::counted) {
            ++reply_.elements;
            if (type == RespType::bulk) {
                ++reply_.values;
                reply_.value_bytes += bytes;
            } else if (type == RespType::null) {
                ++reply_.nulls;
            }
        }
        if (--top.left > 0) return Step::more;
        const Frame kind = top.kind;
        --depth_;
        // An attribute annotates what follows it and is no element of its own; a push
        // message is no reply.
        if (kind == Frame::attribute || (kind == Frame::push && depth_ == 0)) return Step::more;
        type = RespType::aggregate;
        bytes = 0;
        text = {};
    }
}

}  // namespace perflab
