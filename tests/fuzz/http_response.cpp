// SPDX-License-Identifier: MIT
// HTTP/1.1 responses as a keep-alive connection reads them (http_connection.cpp): Beast's
// parser fed the bytes in reads of the size the input's first byte sets (its top bit: the
// request was a HEAD), the body handed chunk by chunk to the targets' checks and a session
// step's captures. The check that searches the body through a window must find its text
// exactly when the whole body holds it.
#include <algorithm>
#include <boost/asio/buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.h"
#include "http/request_template.h"
#include "http/response_check.h"
#include "http/session.h"

namespace {

namespace http = boost::beast::http;
using boost::beast::string_view;
using boost::system::error_code;

// http_connection.cpp's CountingParser (private to it), handing the body to several readers.
class Parser final : public http::basic_parser<false> {
  public:
    int status = 0;
    uint64_t body = 0;
    std::vector<perflab::BodyReader*> readers;
    std::string location;  // a capture's header

  private:
    void on_request_impl(http::verb, string_view, string_view, int, error_code&) override {}
    void on_response_impl(int code, string_view, int, error_code&) override { status = code; }
    void on_field_impl(http::field, string_view name, string_view value, error_code&) override {
        if (boost::beast::iequals(name, "Location"))
            location.assign(value.data(), std::min(value.size(), perflab::kMaxCaptureBytes + 1));
    }
    void on_header_impl(error_code&) override {}
    void on_body_init_impl(const boost::optional<std::uint64_t>&, error_code&) override {}
    size_t on_body_impl(string_view s, error_code&) override { return take(s); }
    void on_chunk_header_impl(std::uint64_t, string_view, error_code&) override {}
    size_t on_chunk_body_impl(std::uint64_t, string_view s, error_code&) override {
        return take(s);
    }
    void on_finish_impl(error_code&) override {}
    size_t take(string_view s) {
        body += s.size();
        for (auto* reader : readers)
            reader->feed({s.data(), s.size()});
        return s.size();
    }
};

perflab::HttpExpect windowed() {
    perflab::HttpExpect e;
    e.body_contains = "\"ok\"";
    return e;
}

perflab::HttpExpect whole() {
    perflab::HttpExpect e;
    e.status = {200, 204};
    e.body_contains = "ok";
    e.body_regex = R"("id":\s*\d+)";
    e.json_path = "$.items[0].id";
    e.json_equals = "7";
    e.max_bytes = 1024;
    return e;
}

perflab::HttpCapture capture(const char* json, const char* header, const char* regex) {
    return {"v", json, header, regex};
}

// Built once, as a run builds them when it starts.
const perflab::ResponseCheck kWindowed(windowed());
const perflab::ResponseCheck kWhole(whole());
const perflab::ValueCapture kCaptures[] = {
    {capture("$.token", "", ""), 0},
    {capture("", "Location", ""), 0},
    {capture("", "", "token=([A-Za-z0-9]+)"), 0},
};

// What the checks and captures make of one response read whole.
void judge(const Parser& p, const perflab::BodyReader& window, const perflab::BodyReader& kept) {
    kWindowed.failures(p.status, window, p.body);
    kWhole.failures(p.status, kept, p.body);
    std::string value;
    for (const auto& c : kCaptures)
        c.take(kept.body(), p.location, value);
    if (window.contains() != (kept.body().find(*kWindowed.contains()) != std::string::npos)) {
        std::fprintf(stderr, "body_contains found %d through its window\n", window.contains());
        std::abort();
    }
}

// The bytes the server sent, arriving in reads of one size.
struct Socket {
    std::string_view stream;
    size_t read_size;
    size_t pos = 0;
    std::string buffer;  // read and not yet parsed, kept from one response to the next
};

// Parses one response as http::async_read does; false when the connection closes.
bool read_response(Parser& p, Socket& in) {
    while (!p.is_done()) {
        error_code ec;
        const size_t used = in.buffer.empty() ? 0 : p.put(boost::asio::buffer(in.buffer), ec);
        in.buffer.erase(0, used);
        if (ec && ec != http::error::need_more) return false;
        if (p.is_done() || (used > 0 && !ec)) continue;
        if (in.pos < in.stream.size()) {
            in.buffer += in.stream.substr(in.pos, in.read_size);
            in.pos += in.read_size;
            continue;
        }
        // The server closed the connection: a response without a length ends here.
        if (!p.got_some()) return false;
        p.put_eof(ec);
        return !ec;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    Socket in{
        {reinterpret_cast<const char*>(data) + 1, size - 1}, size_t(data[0] & 0x7f) + 1, 0, {}};
    const bool head = data[0] & 0x80;
    perflab::BodyReader window, kept;
    while (in.pos < in.stream.size() || !in.buffer.empty()) {
        Parser p;
        p.body_limit(std::numeric_limits<std::uint64_t>::max());
        p.skip(head);
        p.eager(true);
        window.start(&kWindowed);
        kept.start(&kWhole, true);
        p.readers = {&window, &kept};
        if (!read_response(p, in)) return 0;
        judge(p, window, kept);
        if (!p.keep_alive()) return 0;
    }
    return 0;
}
