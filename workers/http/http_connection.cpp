// SPDX-License-Identifier: MIT
#include "http_connection.h"

#include <openssl/ssl.h>
#include <sys/socket.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>
#include <cerrno>

#include "request_template.h"
#include "response_check.h"
#include "response_parser.h"
#include "session.h"

namespace perflab {

namespace http = boost::beast::http;
using boost::system::error_code;

namespace {

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
    ResponseParser parser;
    bool extra = false;  // the server sent bytes beyond the response
    std::unique_ptr<char[]> buffer{new char[kReadBuffer]};
    BodyReader body;     // what the target's checks read of the response
    std::string header;  // the value of a capture's header
};

namespace {

// The parser's verdict as the error codes the run's errors are classified by.
error_code parse_error(ResponseParser::Error e) {
    switch (e) {
        case ResponseParser::Error::cut:
            return http::error::partial_message;
        case ResponseParser::Error::header_too_large:
            return http::error::header_limit;
        case ResponseParser::Error::content_length:
            return http::error::bad_content_length;
        case ResponseParser::Error::chunk_size:
            return http::error::bad_chunk;
        default:
            return http::error::bad_version;
    }
}

}  // namespace

HttpConnection::HttpConnection(const Context& context, int id)
    : ctx_(context), id_(id), parser_(std::make_unique<Parser>()) {
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
    parser_->body.start(t.check.get(), capture && capture->keeps_body());
    parser_->header.clear();
    parser_->parser.start(t.head, parser_->body.active() ? &parser_->body : nullptr,
                          capture ? capture->header() : std::string_view(),
                          capture ? &parser_->header : nullptr, kMaxCaptureBytes + 1);
    parser_->extra = false;
    pending_ = 2;
    const auto bytes = asio::buffer(t.program ? request_ : t.bytes);
    const auto step = [this](const error_code& ec, size_t) { on_step(ec); };
    if (tls_)
        asio::async_write(*tls_, bytes, InMemory(ctx_.memory, step));
    else
        asio::async_write(*plain_, bytes, InMemory(ctx_.memory, step));
    read();
}

void HttpConnection::read() {
    const auto into = asio::buffer(parser_->buffer.get(), kReadBuffer);
    const auto done = [this](const error_code& ec, size_t n) { on_read(ec, n); };
    if (tls_)
        tls_->async_read_some(into, InMemory(ctx_.memory, done));
    else
        plain_->async_read_some(into, InMemory(ctx_.memory, done));
}

// Each read goes to the parser whole: it keeps what it needs, so nothing is buffered.
void HttpConnection::on_read(const error_code& ec, size_t n) {
    ResponseParser& p = parser_->parser;
    if (ec == asio::error::eof) {
        // A response delimited by the close ends here; any other is cut.
        if (!p.got_some()) return on_step(http::error::end_of_stream);
        p.end_of_stream();
        return on_step(p.done() ? error_code() : parse_error(p.error()));
    }
    if (ec) return on_step(ec);
    const size_t used = p.feed({parser_->buffer.get(), n});
    if (p.error() != ResponseParser::Error::none) return on_step(parse_error(p.error()));
    if (!p.done()) return read();
    // Bytes beyond the response answer no request: the connection is not used again.
    parser_->extra = used < n;
    on_step({});
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
    if (parser_->parser.got_some()) return false;
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
        const ResponseParser& p = parser_->parser;
        outcome.status = p.status();
        outcome.body_bytes = p.body();
        if (const auto& check = ctx_.plan.targets[target_].check) {
            outcome.failed_checks = check->failures(p.status(), parser_->body, p.body());
            outcome.status_checked = check->judges_status();
        }
        failures = 0;
        idle_since_ = outcome.at;
        if (!p.keep_alive() || parser_->extra || !ctx_.plan.spec.keepalive) close();
    }
    ctx_.owner.on_complete(*this, outcome);
}

}  // namespace perflab
