// SPDX-License-Identifier: MIT
#include "response_parser.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "response_check.h"

namespace perflab {

namespace {

constexpr std::string_view kVersion = "HTTP/";

char lower(char c) noexcept {
    return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}

bool is_digit(char c) noexcept {
    return c >= '0' && c <= '9';
}

bool is_ows(char c) noexcept {
    return c == ' ' || c == '\t';
}

// RFC 9110 tchar: what a field name is made of.
constexpr auto kTchar = [] {
    std::array<bool, 256> t{};
    for (int c = 0; c < 256; ++c)
        t[size_t(c)] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    for (const char c : std::string_view("!#$%&'*+-.^_`|~"))
        t[static_cast<unsigned char>(c)] = true;
    return t;
}();

bool is_tchar(char c) noexcept {
    return kTchar[static_cast<unsigned char>(c)];
}

int hex_value(char c) noexcept {
    if (is_digit(c)) return c - '0';
    c = lower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// A comma-separated list's items, whitespace around each trimmed, empty ones skipped.
template <class F>
void for_each_item(std::string_view list, F&& f) {
    while (!list.empty()) {
        const size_t comma = std::min(list.find(','), list.size());
        std::string_view item = list.substr(0, comma);
        while (!item.empty() && is_ows(item.front()))
            item.remove_prefix(1);
        while (!item.empty() && is_ows(item.back()))
            item.remove_suffix(1);
        if (!item.empty()) f(item);
        list.remove_prefix(std::min(comma + 1, list.size()));
    }
}

// A token list's tokens as Beast reads them: runs of tchars with commas between; the list ends
// (without an error) at anything else.
template <class F>
void for_each_token(std::string_view list, F&& f) {
    size_t i = 0;
    bool need_comma = false;
    for (;;) {
        while (i < list.size() && is_ows(list[i]))
            ++i;
        if (i == list.size()) return;
        if (is_tchar(list[i])) {
            if (need_comma) return;
            const size_t begin = i;
            while (i < list.size() && is_tchar(list[i]))
                ++i;
            f(list.substr(begin, i - begin));
            need_comma = true;
        } else if (list[i] == ',') {
            need_comma = false;
            ++i;
        } else {
            return;
        }
    }
}

}  // namespace

void ResponseParser::start(bool head, BodyReader* reader, std::string_view wanted,
                           std::string* header, size_t header_cap) {
    head_ = head;
    reader_ = reader;
    wanted_ = wanted;
    header_ = header;
    header_cap_ = header_cap;
    value_.reserve(kValueReserve);
    got_some_ = false;
    error_ = Error::none;
    body_ = 0;
    start_message();
}

void ResponseParser::start_message() {
    state_ = State::version;
    status_ = 0;
    version_ = 0;
    header_bytes_ = 0;
    version_pos_ = 0;
    code_digits_ = 0;
    has_length_ = false;
    length_ = 0;
    chunked_ = false;
    close_ = false;
    keep_alive_token_ = false;
    in_trailer_ = false;
    until_close_ = false;
    if (header_) header_->clear();
}

bool ResponseParser::keep_alive() const noexcept {
    if (state_ != State::done || until_close_) return false;
    return version_ >= 11 ? !close_ : keep_alive_token_;
}

size_t ResponseParser::fail(Error e, size_t used) noexcept {
    error_ = e;
    state_ = State::failed;
    return used;
}

size_t ResponseParser::feed(std::string_view data) {
    size_t i = 0;
    if (!data.empty()) got_some_ = true;
    while (i < data.size()) {
        switch (state_) {
            case State::done:
            case State::failed:
                return i;
            case State::length_body:
                i += take_counted(data.substr(i), State::done);
                continue;
            case State::eof_body:
                take_body(data.substr(i));
                return data.size();
            case State::chunk_data:
                i += take_counted(data.substr(i), State::chunk_data_cr);
                continue;
            default:
                break;
        }
        if (state_ < State::length_body) {
            // Runs within a line in one go; what ends them goes byte by byte below.
            const size_t run = header_run(data.data() + i, data.size() - i);
            header_bytes_ += run;
            if (header_bytes_ > kHeaderLimit) return fail(Error::header_too_large, i + run);
            i += run;
            if (i == data.size()) return i;
        }
        const char c = data[i++];
        if (state_ < State::length_body) {
            if (++header_bytes_ > kHeaderLimit) return fail(Error::header_too_large, i);
            if (!header_byte(c)) return fail(error_ == Error::none ? Error::syntax : error_, i);
            continue;
        }
        switch (state_) {
            case State::chunk_size:
                if (const int h = hex_value(c); h >= 0) {
                    if (remaining_ > (std::numeric_limits<uint64_t>::max() >> 4))
                        return fail(Error::chunk_size, i);
                    remaining_ = remaining_ << 4 | uint64_t(h);
                    ++chunk_digits_;
                } else if (chunk_digits_ > 0 && (c == ';' || is_ows(c))) {
                    state_ = State::chunk_ext;
                } else if (chunk_digits_ > 0 && c == '\r') {
                    state_ = State::chunk_size_lf;
                } else {
                    return fail(Error::chunk_size, i);
                }
                break;
            case State::chunk_ext:
                if (c == '\r') state_ = State::chunk_size_lf;
                break;
            case State::chunk_size_lf:
                if (c != '\n') return fail(Error::syntax, i);
                if (remaining_) {
                    state_ = State::chunk_data;
                } else {
                    // The last chunk: trailer fields follow, read (and counted) as the header's.
                    in_trailer_ = true;
                    state_ = State::field_start;
                }
                break;
            case State::chunk_data_cr:
                if (c != '\r') return fail(Error::syntax, i);
                state_ = State::chunk_data_lf;
                break;
            case State::chunk_data_lf:
                if (c != '\n') return fail(Error::syntax, i);
                state_ = State::chunk_size;
                remaining_ = 0;
                chunk_digits_ = 0;
                break;
            default:
                return fail(Error::syntax, i);
        }
    }
    return i;
}

// The bytes from `p` that the current state takes without a change of state: a field's
// name up to its colon, whitespace before a value, a value (or a reason phrase) up to its CR.
size_t ResponseParser::header_run(const char* p, size_t n) {
    const auto line_end = [&] {
        const void* cr = std::memchr(p, '\r', n);
        return cr ? size_t(static_cast<const char*>(cr) - p) : n;
    };
    switch (state_) {
        case State::reason:
            return line_end();
        case State::name: {
            size_t k = 0, len = name_len_;
            bool match = wanted_match_;
            for (; k < n && is_tchar(p[k]); ++k, ++len) {
                const char l = lower(p[k]);
                match = match && len < wanted_.size() && l == lower(wanted_[len]);
                if (len < sizeof name_) name_[len] = l;
            }
            name_len_ = len;
            wanted_match_ = match;
            return k;
        }
        case State::value_ows: {
            size_t k = 0;
            while (k < n && is_ows(p[k]))
                ++k;
            return k;
        }
        case State::value: {
            if (field_ == Field::other && !capturing_) return line_end();
            // The first byte (after a fold, its space first) goes byte by byte.
            if (folded_) return 0;
            const size_t run = line_end();
            append_value({p, run});
            return run;
        }
        default:
            return 0;
    }
}

void ResponseParser::end_of_stream() {
    if (state_ == State::eof_body) {
        state_ = State::done;
        return;
    }
    if (state_ != State::done && state_ != State::failed) fail(Error::cut, 0);
}

// Body bytes up to the `remaining_` the length or the chunk set; `then` once they are in.
size_t ResponseParser::take_counted(std::string_view rest, State then) {
    const size_t n = size_t(std::min<uint64_t>(remaining_, rest.size()));
    take_body(rest.substr(0, n));
    remaining_ -= n;
    if (remaining_ == 0) state_ = then;
    return n;
}

void ResponseParser::take_body(std::string_view run) {
    body_ += run.size();
    if (reader_) reader_->feed(run);
}

// The status line and the fields, one byte at a time. False on a byte that does not belong.
bool ResponseParser::header_byte(char c) {
    switch (state_) {
        case State::version:
            if (version_pos_ < kVersion.size()) {
                if (c != kVersion[version_pos_++]) return false;
            } else if (version_pos_ == kVersion.size() || version_pos_ == kVersion.size() + 2) {
                if (!is_digit(c)) return false;
                version_ = version_ * 10 + (c - '0');
                ++version_pos_;
            } else if (version_pos_ == kVersion.size() + 1) {
                if (c != '.') return false;
                ++version_pos_;
            } else {
                if (c != ' ') return false;
                state_ = State::code;
            }
            return true;
        case State::code:
            if (code_digits_ < 3) {
                if (!is_digit(c)) return false;
                status_ = status_ * 10 + (c - '0');
                ++code_digits_;
                return true;
            }
            if (c == ' ') {
                state_ = State::reason;
                return true;
            }
            if (c != '\r') return false;
            state_ = State::status_lf;
            return true;
        case State::reason:  // header_run took the rest of the line
            state_ = State::status_lf;
            return true;
        case State::status_lf:
            if (c != '\n') return false;
            state_ = State::field_start;
            return true;
        case State::field_lf:
            if (c != '\n') return false;
            state_ = State::field_next;
            return true;
        case State::field_next:
            // A line that starts with whitespace continues the field before (obs-fold): its
            // text joins the value after one space, as Beast joins it.
            if (is_ows(c)) {
                fold();
                state_ = State::value_ows;
                return true;
            }
            if (!end_field()) return false;
            state_ = State::field_start;
            [[fallthrough]];
        case State::field_start:
            if (c == '\r') {
                state_ = State::header_lf;
                return true;
            }
            if (!is_tchar(c)) return false;
            name_len_ = 0;
            wanted_match_ = header_ && !wanted_.empty();
            field_ = Field::other;
            value_.clear();
            value_trim_ = 0;
            capturing_ = capture_cut_ = folded_ = false;
            state_ = State::name;
            [[fallthrough]];
        case State::name:
            if (c == ':') {
                const std::string_view name(name_, std::min(name_len_, sizeof name_));
                capturing_ = wanted_match_ && name_len_ == wanted_.size();
                if (capturing_) header_->clear();
                if (name == "content-length")
                    field_ = Field::content_length;
                else if (name == "transfer-encoding")
                    field_ = Field::transfer_encoding;
                else if (name == "connection" || name == "proxy-connection")
                    field_ = Field::connection;
                state_ = State::value_ows;
                return true;
            }
            if (!is_tchar(c)) return false;
            wanted_match_ = wanted_match_ && name_len_ < wanted_.size() &&
                            lower(c) == lower(wanted_[name_len_]);
            if (name_len_ < sizeof name_) name_[name_len_] = lower(c);
            ++name_len_;
            return true;
        case State::value_ows:
            if (is_ows(c)) return true;
            state_ = State::value;
            [[fallthrough]];
        case State::value:
            if (c == '\r') {
                state_ = State::field_lf;
                return true;
            }
            if (folded_) {
                folded_ = false;
                if (capturing_ && !header_->empty() && header_->size() < header_cap_)
                    header_->push_back(' ');
                if (value_trim_ > 0) value_.push_back(' ');
            }
            append_value({&c, 1});
            return true;
        case State::header_lf:
            if (c != '\n') return false;
            if (in_trailer_) {
                state_ = State::done;
                return true;
            }
            return end_header();
        default:
            return false;
    }
}

// A value's bytes: to the capture (up to its cap) and, for a field that says something of the
// body or the connection, to value_ in lowercase.
void ResponseParser::append_value(std::string_view run) {
    if (capturing_) {
        const size_t room = header_cap_ - std::min(header_cap_, header_->size());
        header_->append(run.substr(0, room));
        for (size_t k = room; k < run.size() && !capture_cut_; ++k)
            capture_cut_ = !is_ows(run[k]);
    }
    if (field_ == Field::other) return;
    for (const char c : run) {
        value_.push_back(lower(c));
        if (!is_ows(c)) value_trim_ = value_.size();
    }
}

// The value so far loses its trailing whitespace; a space comes before the next text.
void ResponseParser::fold() {
    if (capturing_ && !capture_cut_)
        while (!header_->empty() && is_ows(header_->back()))
            header_->pop_back();
    value_.resize(value_trim_);
    folded_ = true;
}

// A field's value is whole: what it says of the body and the connection.
bool ResponseParser::end_field() {
    // Trailing whitespace is no part of a value, unless the value was cut before it.
    if (capturing_ && !capture_cut_)
        while (!header_->empty() && is_ows(header_->back()))
            header_->pop_back();
    if (field_ == Field::other) return true;
    const std::string_view value(value_.data(), value_trim_);
    if (field_ == Field::connection) {
        for_each_token(value, [&](std::string_view token) {
            close_ |= token == "close";
            keep_alive_token_ |= token == "keep-alive";
        });
        return true;
    }
    if (field_ == Field::transfer_encoding) {
        if (chunked_ || has_length_) {
            error_ = Error::syntax;
            return false;
        }
        // Chunked when "chunked" is the last coding and no other is "chunked" (Beast's reading).
        int tokens = 0, first_chunked = -1;
        for_each_token(value, [&](std::string_view coding) {
            if (coding == "chunked" && first_chunked < 0) first_chunked = tokens;
            ++tokens;
        });
        chunked_ = first_chunked >= 0 && first_chunked == tokens - 1;
        return true;
    }
    // Content-Length: a number, or a list of the same number.
    error_ = Error::content_length;
    if (chunked_) return false;
    bool any = false, ok = true;
    for_each_item(value, [&](std::string_view item) {
        uint64_t n = 0;
        for (const char d : item) {
            if (!is_digit(d) || n > (std::numeric_limits<uint64_t>::max() - 9) / 10) {
                ok = false;
                return;
            }
            n = n * 10 + uint64_t(d - '0');
        }
        if (has_length_ && n != length_) ok = false;
        has_length_ = true;
        length_ = n;
        any = true;
    });
    if (!ok || !any || value.find(",,") != std::string_view::npos || value.back() == ',' ||
        value.front() == ',')
        return false;
    error_ = Error::none;
    return true;
}

// The header is whole: where the body ends. An interim response starts the next one.
bool ResponseParser::end_header() {
    if (status_ / 100 == 1 && status_ != 101) {
        start_message();
        return true;
    }
    if (head_ || status_ / 100 == 1 || status_ == 204 || status_ == 304) {
        state_ = State::done;
    } else if (has_length_) {
        remaining_ = length_;
        state_ = length_ ? State::length_body : State::done;
    } else if (chunked_) {
        remaining_ = 0;
        chunk_digits_ = 0;
        state_ = State::chunk_size;
    } else {
        until_close_ = true;
        state_ = State::eof_body;
    }
    return true;
}

}  // namespace perflab
