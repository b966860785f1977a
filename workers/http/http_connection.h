// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "channel.h"
#include "handler_memory.h"
#include "http_request.h"
#include "http_stats.h"

namespace perflab {

namespace asio = boost::asio;
using Tcp = asio::ip::tcp;
// The io_context's own executor, not the type-erased default: a completion is then a direct
// call rather than an executor function wrapped, copied and allocated per operation.
using TcpSocket = asio::basic_stream_socket<Tcp, asio::io_context::executor_type>;

class HttpConnection;
class ValueCapture;

using HttpConnectionOwner = ChannelOwner<HttpConnection>;

// One keep-alive connection on a worker's io_context: connects (and handshakes) on demand,
// writes a target's prepared bytes and parses the response (ResponseParser) without storing
// it. One request at a time. Timeouts are enforced from outside by expire_if_due, so a request
// costs no timer.
class HttpConnection {
  public:
    struct Context {
        asio::io_context& io;
        asio::ssl::context* tls;  // null when no target uses https
        const HttpPlan& plan;
        const std::vector<Tcp::resolver::results_type>& endpoints;  // per origin
        HttpConnectionOwner& owner;
        std::atomic<int>& open_count;
        HandlerMemory& memory;  // this connection's, kept by the owner beyond the io_context
    };

    HttpConnection(const Context& context, int id);
    ~HttpConnection();
    HttpConnection(const HttpConnection&) = delete;
    HttpConnection& operator=(const HttpConnection&) = delete;

    // Starts a request for target whose latency counts from `from`, at `now`; reconnects
    // first when the connection is closed or open to another origin.
    void send(size_t target, HttpClock::time_point from, HttpClock::time_point now);
    // Opens the connection to an origin before any request, so the first requests of a run
    // are not charged a connect; on_ready follows, whether it opened or not.
    void preconnect(size_t origin);
    // Closes a connection whose connect or request took too long; the request fails as a
    // connect timeout or a timeout.
    void expire_if_due(HttpClock::time_point now);
    void close();
    // Where a templated target's request is rendered before send(); reserved for the plan's
    // largest request, so rendering into them does not allocate.
    std::string& request_buffer() { return request_; }
    std::string& body_buffer() { return body_; }
    // What the last response gave a capture: its body when the capture (or a check) kept it,
    // and the value of the capture's header. Valid in on_complete.
    std::string_view response_body() const;
    std::string_view response_header() const;

    int id() const { return id_; }
    bool busy() const { return busy_; }
    bool in_request() const { return busy_ && !preconnecting_; }
    bool is_open() const { return open_; }
    size_t target() const { return target_; }
    size_t origin() const { return origin_; }
    HttpClock::time_point from() const { return from_; }
    HttpClock::time_point sent() const { return sent_; }

    // The phase whose request this is; the owner counts the request there.
    int phase = 0;
    // Sent on an open-model schedule: its service time counts beside its latency (a phase's
    // late replies can come after the next, closed-model phase began).
    bool paced = false;
    // Closed model: after a failed connect the owner waits before the next try.
    int failures = 0;
    HttpClock::time_point retry_at{};
    size_t idle_slot = SIZE_MAX;  // the owner's idle list position, SIZE_MAX when not idle
    // A session step's capture, set by the owner before send(): the response keeps what it
    // reads (null: nothing beyond the target's checks).
    const ValueCapture* capture = nullptr;

  private:
    struct Parser;

    void connect();
    void on_connect(const boost::system::error_code& ec);
    void on_handshake(const boost::system::error_code& ec);
    void write(HttpClock::time_point now);
    void read();
    void on_read(const boost::system::error_code& ec, size_t n);
    void on_step(const boost::system::error_code& ec);
    void finish();
    bool resend_on_fresh_connection();
    bool readable_while_idle();
    void set_open(bool open);
    TcpSocket& socket();

    Context ctx_;
    const int id_;
    std::optional<TcpSocket> plain_;
    std::optional<asio::ssl::stream<TcpSocket>> tls_;
    std::unique_ptr<Parser> parser_;  // one per connection, rebuilt in place per response
    std::string request_;
    std::string body_;
    size_t origin_ = SIZE_MAX;
    size_t target_ = 0;
    HttpClock::time_point from_{};
    HttpClock::time_point sent_{};  // when send() was called: the start of the service time
    HttpClock::time_point deadline_ = HttpClock::time_point::max();
    HttpClock::time_point idle_since_{};  // when the last response ended
    int pending_ = 0;  // write and read run together; the request ends when both have
    boost::system::error_code first_error_;
    bool busy_ = false;
    bool open_ = false;
    bool handshaking_ = false;
    bool timed_out_ = false;
    bool connect_timed_out_ = false;
    bool reused_ = false;  // the request went out on a connection an earlier one used
    bool resent_ = false;  // ...and failed there, so it went again on a new connection
    bool preconnecting_ = false;
};

}  // namespace perflab
