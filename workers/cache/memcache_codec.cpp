// SPDX-License-Identifier: MIT
#include "memcache_codec.h"

#include <algorithm>
#include <charconv>
#include <cstring>

namespace perflab {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) noexcept {
    return s.substr(0, prefix.size()) == prefix;
}

// The n-th space-separated token of a line (0 is the first).
std::string_view token(std::string_view line, int n) noexcept {
    size_t pos = 0;
    for (int i = 0;; ++i) {
        while (pos < line.size() && line[pos] == ' ')
            ++pos;
        const size_t end = std::min(line.find(' ', pos), line.size());
        if (i == n) return line.substr(pos, end - pos);
        if (end >= line.size()) return {};
        pos = end;
    }
}

bool to_u32(std::string_view s, uint32_t& out) noexcept {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

}  // namespace

void OutBuffer::reserve(size_t capacity) {
    if (capacity <= capacity_) return;
    const size_t grown = std::max(capacity, capacity_ * 2);
    std::unique_ptr<char[]> bigger(new char[grown]);
    std::memcpy(bigger.get(), data_.get(), size_);
    data_ = std::move(bigger);
    capacity_ = grown;
}

void OutBuffer::append(std::string_view bytes) {
    reserve(size_ + bytes.size());
    std::memcpy(data_.get() + size_, bytes.data(), bytes.size());
    size_ += bytes.size();
}

void OutBuffer::append_number(uint64_t n) {
    char digits[20];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, n);
    append({digits, size_t(end - digits)});
}

void encode_get(OutBuffer& out, CacheProtocol protocol, std::string_view key) {
    if (protocol == CacheProtocol::meta) {
        out.append("mg ");
        out.append(key);
        out.append(" v\r\n");
    } else {
        out.append("get ");
        out.append(key);
        out.append("\r\n");
    }
}

void encode_set(OutBuffer& out, CacheProtocol protocol, std::string_view key,
                std::string_view value, uint32_t ttl_s) {
    if (protocol == CacheProtocol::meta) {
        out.append("ms ");
        out.append(key);
        out.append(" ");
        out.append_number(value.size());
        out.append(" T");
        out.append_number(ttl_s);
    } else {
        out.append("set ");
        out.append(key);
        out.append(" 0 ");
        out.append_number(ttl_s);
        out.append(" ");
        out.append_number(value.size());
    }
    out.append("\r\n");
    out.append(value);
    out.append("\r\n");
}

void encode_mget_begin(OutBuffer& out, CacheProtocol protocol) {
    if (protocol != CacheProtocol::meta) out.append("get");
}

void encode_mget_key(OutBuffer& out, CacheProtocol protocol, std::string_view key) {
    if (protocol == CacheProtocol::meta) {
        out.append("mg ");
        out.append(key);
        out.append(" v\r\n");
    } else {
        out.append(" ");
        out.append(key);
    }
}

void encode_mget_end(OutBuffer& out, CacheProtocol protocol) {
    out.append(protocol == CacheProtocol::meta ? "mn\r\n" : "\r\n");
}

bool ReplyParser::start_value(std::string_view line, bool text) noexcept {
    if (!to_u32(token(line, text ? 3 : 1), value_bytes_)) return false;
    skip_ = uint64_t(value_bytes_) + 2;
    end_after_value_ = text;
    value_pending_ = text;
    return true;
}

ReplyParser::Line ReplyParser::parse_line(std::string_view line, Reply& out) noexcept {
    if (value_pending_) {
        // Text protocol: "END" closes the reply of a get that found its value; another VALUE
        // means a multi-key get, and the value before was one of several.
        value_pending_ = false;
        if (line == "END") {
            out = {ReplyKind::hit, value_bytes_};
            return Line::reply;
        }
        if (!starts_with(line, "VALUE ")) return Line::bad;
        out = {ReplyKind::value, value_bytes_};
        return start_value(line, true) ? Line::reply : Line::bad;
    }
    const bool text_value = starts_with(line, "VALUE ");
    if (text_value || starts_with(line, "VA "))
        return start_value(line, text_value) ? Line::value : Line::bad;
    if (line == "MN") {
        out = {ReplyKind::end, 0};
    } else if (line == "END" || line == "EN") {
        out = {ReplyKind::miss, 0};
    } else if (line == "STORED" || starts_with(line, "HD")) {
        out = {ReplyKind::stored, 0};
    } else if (line == "NOT_STORED" || line == "EXISTS" || line == "NOT_FOUND" ||
               starts_with(line, "NS") || starts_with(line, "EX") || starts_with(line, "NF")) {
        out = {ReplyKind::not_stored, 0};
    } else if (starts_with(line, "SERVER_ERROR") || starts_with(line, "CLIENT_ERROR") ||
               line == "ERROR") {
        out = {ReplyKind::error, 0};
    } else {
        return Line::bad;
    }
    return Line::reply;
}

}  // namespace perflab
