// SPDX-License-Identifier: MIT
#include "http_connection.h"

#include <openssl/ssl.h>
#include <sys/socket.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/basic_parser.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <cerrno>
#include <limits>

#include "request_template.h"
#include "response_check.h"
#include "session.h"

namespace perflab {

namespace http = boost::beast::http;
using boost::system::error_code;

namespace {

// Counts the status and the body and keeps nothing else, unless a check reads the body (then
// `reader` has it): a response costs no allocation.
class CountingParser final : public http::basic_parser<false> {
  public:
    int status = 0;
    uint64_t body = 0;
    BodyReader* reader = nullptr;
    boost::beast::string_view wanted_header;  // a capture's header; its value goes to `header`
    std::string* header = nullptr;

  private:
    void on_request_impl(http::verb, boost::beast::string_view, boost::beast::string_view, int,
                         error_code&) override {}
    void on_response_impl(int code, boost::beast::string_view, int, error_code&) override {
        status = code;
    }
    void on_field_impl(http::field, boost::beast::string_view name, boost::beast::string_view value,
                       error_code&) override {
        if (wanted_header.empty() || !boost::beast::iequals(name, wanted_header)) return;
        // One byte past the longest value is enough to see it is too long, and stays within
        // the buffer's reserved capacity.
        header->assign(value.data(), std::min(value.size(), kMaxCaptureBytes + 1));
    }
    void on_header_impl(error_code&) override {}
    void on_body_init_impl(const boost::optional<std::uint64_t>&, error_code&) override {}
    size_t on_body_impl(boost::beast::string_view s, error_code&) override {
        take(s);
        return s.size();
    }
    void on_chunk_header_impl(std::uint64_t, boost::beast::string_view, error_code&) override {}
    size_t on_chunk_body_impl(std::uint64_t, boost::beast::string_view s, error_code&) override {
        take(s);
        return s.size();
    }
    void take(boost::beast::string_view s) {
        body += s.size();
        if (reader) reader->feed(std::string_view(s.data(), s.size()));
    }
    void on_finish_impl(error_code&) override {}
};

HttpError classify(const error_code& ec, bool handshaking) {
    namespace err = asio::error;
    if (ec == err::connection_refused) return HttpError::refused;
    if (ec == err::connection_reset || ec == err::broken_pipe || ec == err::connection_aborted)
        return HttpError::reset;
    if (ec == err::timed_out) return HttpError::timeout;
    if (ec == err::host_not_found || ec == err::host_not_found_try_again) return HttpError::resolve;
    if (ec.category() == err::get_ssl_category() ||
        ec.category() == asio::ssl::error::get_stream_category() || handshaking)
        return HttpError::tls;
    if (ec == err::eof || ec == http::error::end_of_stream || ec == http::error::partial_message)
        return HttpError::eof;
    if (ec.category() == http::make_error_code(http::error::bad_version).category())
        return HttpError::parse;
    return HttpError::other;
}

constexpr size_t kReadBuffer = 16 * 1024;
constexpr auto kIdleCheckAfter = std::chrono::milliseconds(200);

HttpClock::time_point after_ms(int ms) {
    return HttpClock::now() + std::chrono::milliseconds(ms);
}

}  // namespace

struct HttpConnection::Parser {
    std::optional<CountingParser> parser;
    boost::beast::flat_buffer buffer;
    BodyReader body;     // what the target's checks read of the response
    std::string header;  // the value of a capture's header
};

HttpConnection::HttpConnection(const Context& context, int id)
    : ctx_(context), id_(id), parser_(std::make_unique<Parser>()) {
    // Beast reads at most the buffer's free capacity (512 bytes when empty): room for a
    // typical response makes it one read instead of a dozen.
    parser_->buffer.reserve(kReadBuffer);
    if (!ctx_.plan.steps.empty()) parser_->header.reserve(kMaxCaptureBytes + 1);
    request_.reserve(ctx_.plan.max_request_bytes);
    body_.reserve(ctx_.plan.max_request_bytes);
}

HttpConnection::~HttpConnection() {
    close();
}

std::string_view HttpConnection::response_body() const {
    return parser_->body.body();
}

std::string_view HttpConnection::response_header() const {
    return parser_->header;
}

TcpSocket& HttpConnection::socket() {
    return tls_ ? tls_->next_layer() : *plain_;
}

void HttpConnection::set_open(bool open) {
    if (open == open_) return;
    open_ = open;
    ctx_.open_count.fetch_add(open ? 1 : -1, std::memory_order_relaxed);
}

void HttpConnection::close() {
    set_open(false);
    error_code ignored;
    if (tls_ || plain_) socket().close(ignored);
}

void HttpConnection::send(size_t target, HttpClock::time_point from, HttpClock::time_point now) {
    busy_ = true;
    target_ = target;
    from_ = from;
    sent_ = now;
    timed_out_ = connect_timed_out_ = false;
    resent_ = false;
    first_error_ = {};
    const size_t origin = ctx_.plan.targets[target].origin;
    // A server closes keep-alive connections left idle too long. Sending on one it has
    // closed would fail a request the server never saw, so a connection idle for a while is
    // checked first (one recv, skipped at any busy rate): anything to read there, an end of
    // stream or unsolicited bytes, means a new connection.
    reused_ = open_ && origin == origin_ &&
              !(now - idle_since_ > kIdleCheckAfter && readable_while_idle());
    if (reused_) return write(now);
    close();
    origin_ = origin;
    connect();
}

void HttpConnection::preconnect(size_t origin) {
    busy_ = true;  // so the sweep holds the connect to its timeout
    preconnecting_ = true;
    timed_out_ = connect_timed_out_ = false;
    first_error_ = {};
    close();
    origin_ = origin;
    connect();
}

void HttpConnection::connect() {
    deadline_ = after_ms(ctx_.plan.spec.connect_timeout_ms);
    handshaking_ = false;
    first_error_ = {};
    parser_->buffer.clear();
    if (ctx_.plan.origins[origin_].tls) {
        plain_.reset();
        tls_.emplace(ctx_.io, *ctx_.tls);
    } else {
        tls_.reset();
        plain_.emplace(ctx_.io);
    }
    asio::async_connect(socket(), ctx_.endpoints[origin_],
                        [this](const error_code& ec, const Tcp::endpoint&) { on_connect(ec); });
}

void HttpConnection::on_connect(const error_code& ec) {
    if (ec) {
        first_error_ = ec;
        return finish();
    }
    // The error_code overload: an exception thrown in a completion handler would end the
    // process. A socket without TCP_NODELAY still works.
    error_code ignored;
    socket().set_option(Tcp::no_delay(true), ignored);
    if (!tls_) {
        set_open(true);
        if (preconnecting_) return finish();
        return write(HttpClock::now());
    }
    const Url& url = ctx_.plan.origins[origin_];
    SSL_set_tlsext_host_name(tls_->native_handle(), url.host.c_str());
    if (ctx_.plan.spec.tls_verify)
        tls_->set_verify_callback(asio::ssl::host_name_verification(url.host));
    handshaking_ = true;
    tls_->async_handshake(asio::ssl::stream_base::client,
                          [this](const error_code& e) { on_handshake(e); });
}

void HttpConnection::on_handshake(const error_code& ec) {
    if (ec) {
        first_error_ = ec;
        return finish();
    }
    handshaking_ = false;
    set_open(true);
    if (preconnecting_) return finish();
    write(HttpClock::now());
}

void HttpConnection::write(HttpClock::time_point now) {
    deadline_ = now + std::chrono::milliseconds(ctx_.plan.spec.timeout_ms);
    const PreparedTarget& t = ctx_.plan.targets[target_];
    auto& p = parser_->parser.emplace();
    // Not boost::none: Beast 1.74 compares a content length against an empty optional and
    // fails every response with a body.
    p.body_limit(std::numeric_limits<std::uint64_t>::max());
    p.skip(t.head);
    p.eager(true);
    parser_->body.start(t.check.get(), capture && capture->keeps_body());
    p.reader = parser_->body.active() ? &parser_->body : nullptr;
    if (capture) {
        parser_->header.clear();
        p.wanted_header = capture->header();
        p.header = &parser_->header;
    }
    pending_ = 2;
    const auto bytes = asio::buffer(t.program ? request_ : t.bytes);
    const auto step = [this](const error_code& ec, size_t) { on_step(ec); };
    if (tls_) {
        asio::async_write(*tls_, bytes, InMemory(ctx_.memory, step));
        http::async_read(*tls_, parser_->buffer, p, InMemory(ctx_.memory, step));
    } else {
        asio::async_write(*plain_, bytes, InMemory(ctx_.memory, step));
        http::async_read(*plain_, parser_->buffer, p, InMemory(ctx_.memory, step));
    }
}

void HttpConnection::on_step(const error_code& ec) {
    if (ec && !first_error_) {
        first_error_ = ec;
        // The other half of the request is still pending: end it now.
        error_code ignored;
        socket().close(ignored);
    }
    if (--pending_ == 0) finish();
}

void HttpConnection::expire_if_due(HttpClock::time_point now) {
    if (!busy_ || now < deadline_ || timed_out_) return;
    timed_out_ = true;
    connect_timed_out_ = !open_;
    error_code ignored;
    socket().close(ignored);
}

bool HttpConnection::readable_while_idle() {
    // TLS connections may hold records nobody read yet (TLS 1.3 session tickets): only a
    // plain connection can be judged by a peek.
    if (tls_) return false;
    char byte;
    const ssize_t n = ::recv(socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return n >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
}

// A server may close a keep-alive connection at any moment between requests (an idle
// timeout, a request limit), so a request sent on a reused connection can meet a connection
// the server already closed. As browsers and HTTP libraries do, an idempotent request that
// failed so, before any byte of a response, goes once more on a new connection; the server
// never saw the first attempt.
bool HttpConnection::resend_on_fresh_connection() {
    if (!reused_ || resent_ || timed_out_ || !first_error_) return false;
    if (!ctx_.plan.targets[target_].idempotent) return false;
    if (parser_->parser && parser_->parser->got_some()) return false;
    resent_ = true;
    reused_ = false;
    close();
    connect();
    return true;
}

void HttpConnection::finish() {
    if (resend_on_fresh_connection()) return;
    busy_ = false;
    deadline_ = HttpClock::time_point::max();
    if (preconnecting_) {
        preconnecting_ = false;
        idle_since_ = HttpClock::now();
        if (timed_out_ || first_error_) close();
        return ctx_.owner.on_ready(*this);
    }
    HttpOutcome outcome;
    outcome.at = HttpClock::now();
    const bool failed = timed_out_ || first_error_;
    if (timed_out_)
        outcome.error = connect_timed_out_ ? HttpError::connect_timeout : HttpError::timeout;
    else if (first_error_)
        outcome.error = classify(first_error_, handshaking_);
    if (failed) {
        outcome.unreached = !open_;
        ++failures;
        close();
    } else {
        const auto& p = *parser_->parser;
        outcome.status = p.status;
        outcome.body_bytes = p.body;
        if (const auto& check = ctx_.plan.targets[target_].check) {
            outcome.failed_checks = check->failures(p.status, parser_->body, p.body);
            outcome.status_checked = check->judges_status();
        }
        failures = 0;
        idle_since_ = outcome.at;
        if (!p.keep_alive() || !ctx_.plan.spec.keepalive) close();
    }
    ctx_.owner.on_complete(*this, outcome);
}

}  // namespace perflab
