// SPDX-License-Identifier: MIT
#pragma once
// Two readers of the responses on a connection: Beast's parser as PerfLab used it before it
// had its own, the reference; and the lean parser (workers/http/response_parser.h), checked
// against it on a corpus and by the fuzzer.
#include <boost/asio/buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "http/response_check.h"
#include "http/response_parser.h"

namespace perflab::testing {

// What one response read from a connection came to.
struct ParsedResponse {
    bool complete = false;  // false: the parser refused it, or the connection ended within it
    int status = 0;
    std::string body;
    bool keep_alive = false;
    std::string header;  // the wanted field's value
    bool operator==(const ParsedResponse&) const = default;
};

class BeastResponse final : public boost::beast::http::basic_parser<false> {
  public:
    BeastResponse(std::string_view wanted, size_t cap) : wanted_(wanted), cap_(cap) {
        body_limit(std::numeric_limits<std::uint64_t>::max());
        eager(true);
    }
    ParsedResponse out;

  private:
    using sv = boost::beast::string_view;
    using ec_t = boost::system::error_code;
    void on_request_impl(boost::beast::http::verb, sv, sv, int, ec_t&) override {}
    void on_response_impl(int code, sv, int, ec_t&) override { out.status = code; }
    void on_field_impl(boost::beast::http::field, sv name, sv value, ec_t&) override {
        if (!wanted_.empty() && boost::beast::iequals(name, sv(wanted_.data(), wanted_.size())))
            out.header.assign(value.data(), std::min(value.size(), cap_));
    }
    void on_header_impl(ec_t&) override {}
    void on_body_init_impl(const boost::optional<std::uint64_t>&, ec_t&) override {}
    size_t on_body_impl(sv s, ec_t&) override {
        out.body.append(s.data(), s.size());
        return s.size();
    }
    void on_chunk_header_impl(std::uint64_t, sv, ec_t&) override {}
    size_t on_chunk_body_impl(std::uint64_t, sv s, ec_t&) override {
        out.body.append(s.data(), s.size());
        return s.size();
    }
    void on_finish_impl(ec_t&) override {}
    std::string_view wanted_;
    size_t cap_;
};

// Reads one response from `stream` at `pos` as http::async_read does, in reads of
// `read_size`, skipping interim (1xx but 101) responses as a client does.
inline ParsedResponse beast_read(std::string_view stream, size_t& pos, size_t read_size, bool head,
                                 std::string_view wanted = {}, size_t cap = 0) {
    std::string buffer;
    for (;;) {
        BeastResponse p(wanted, cap);
        p.skip(head);
        bool failed = false;
        while (!p.is_done() && !failed) {
            boost::system::error_code ec;
            const size_t used = buffer.empty() ? 0 : p.put(boost::asio::buffer(buffer), ec);
            buffer.erase(0, used);
            if (ec && ec != boost::beast::http::error::need_more) {
                failed = true;
                break;
            }
            if (p.is_done() || (used > 0 && !ec)) continue;
            if (pos < stream.size()) {
                const size_t n = std::min(read_size, stream.size() - pos);
                buffer.append(stream.substr(pos, n));
                pos += n;
                continue;
            }
            if (!p.got_some()) {
                failed = true;
                break;
            }
            p.put_eof(ec);
            failed = bool(ec);
            break;
        }
        // Bytes read past this response belong to the next one.
        pos -= buffer.size();
        buffer.clear();
        if (failed) return {};
        if (p.out.status / 100 == 1 && p.out.status != 101) continue;
        p.out.complete = true;
        p.out.keep_alive = p.keep_alive();
        return p.out;
    }
}

// The same with the lean parser, fed each read as it comes.
inline ParsedResponse lean_read(std::string_view stream, size_t& pos, size_t read_size, bool head,
                                std::string_view wanted = {}, size_t cap = 0) {
    ResponseParser p;
    BodyReader reader;
    reader.start(nullptr, true);
    std::string header;
    p.start(head, &reader, wanted, &header, cap);
    while (!p.done() && p.error() == ResponseParser::Error::none) {
        if (pos >= stream.size()) {
            p.end_of_stream();
            break;
        }
        const size_t n = std::min(read_size, stream.size() - pos);
        const size_t used = p.feed(stream.substr(pos, n));
        pos += used;
        if (used < n) break;
    }
    if (!p.done()) return {};
    return {true, p.status(), std::string(reader.body()), p.keep_alive(), header};
}

}  // namespace perflab::testing
