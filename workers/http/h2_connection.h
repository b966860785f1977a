// SPDX-License-Identifier: MIT
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "http_connection.h"

namespace perflab {

class BodyReader;
class H2Connection;
class H2Stream;
struct H2Request;
using H2StreamOwner = ChannelOwner<H2Stream>;

// A worker's HTTP/2 connections (TLS with ALPN "h2", or h2c with prior knowledge), shared
// by its stream slots: a slot starting a request takes the first connection to its origin
// with a free stream (max_streams, or fewer if the server's SETTINGS say so), and a new
// connection only when all are full and the bound allows one more; at the bound it takes the
// least loaded one, where nghttp2 holds the request until a stream frees.
class H2Pool {
  public:
    struct Context {
        asio::io_context& io;
        asio::ssl::context* tls;  // null when no target uses https; offers ALPN "h2"
        const HttpPlan& plan;
        const std::vector<Tcp::resolver::results_type>& endpoints;  // per origin
        std::atomic<int>& open_count;
        // The worker's, declared before its io_context: an operation still queued when the
        // io_context goes is freed into it.
        std::deque<HandlerMemory>& memory;
    };

    explicit H2Pool(const Context& context);
    ~H2Pool();
    H2Pool(const H2Pool&) = delete;
    H2Pool& operator=(const H2Pool&) = delete;

    // Connections beyond the bound close once they carry no stream.
    void set_bound(int connections);
    H2Connection& acquire(size_t origin);
    // Closes connections whose connect (and handshake) took longer than connect_timeout_ms.
    void expire_if_due(HttpClock::time_point now);
    void close_all();
    // A static target's header fields, built once.
    const H2Request& request(size_t target) const { return *static_[target]; }
    bool over_bound() const;

  private:
    Context ctx_;
    std::vector<std::unique_ptr<H2Connection>> conns_;
    std::vector<std::unique_ptr<H2Request>> static_;  // per target; null when templated
    int bound_ = 1;
};

// One request at a time on an HTTP/2 connection of the pool: the HTTP/2 counterpart of
// HttpConnection, with the same interface, so the worker paces and counts both alike.
class H2Stream {
  public:
    struct Context {
        H2Pool& pool;
        H2StreamOwner& owner;
        const HttpPlan& plan;
    };

    H2Stream(const Context& context, int id);
    ~H2Stream();
    H2Stream(const H2Stream&) = delete;
    H2Stream& operator=(const H2Stream&) = delete;

    void send(size_t target, HttpClock::time_point from, HttpClock::time_point now);
    // Joins (or opens) a connection to the origin before any request; on_ready follows.
    void preconnect(size_t origin);
    // A stream that took too long is reset (RST_STREAM) and fails as a timeout; a
    // connection's connect timeout is the pool's.
    void expire_if_due(HttpClock::time_point now);
    // A slot holds no connection of its own (the pool closes those): nothing to close.
    void close() {}
    std::string& request_buffer() { return request_; }
    std::string& body_buffer() { return body_; }

    int id() const { return id_; }
    bool busy() const { return busy_; }
    bool in_request() const { return busy_ && !preconnecting_; }
    size_t target() const { return target_; }
    size_t origin() const { return origin_; }
    HttpClock::time_point from() const { return from_; }
    HttpClock::time_point sent() const { return sent_; }

    int phase = 0;
    bool paced = false;
    int failures = 0;
    HttpClock::time_point retry_at{};
    size_t idle_slot = SIZE_MAX;

  private:
    friend class H2Connection;

    void start();
    void finish(HttpOutcome& outcome);
    // From its connection, on the worker's thread, never inside an nghttp2 call.
    void on_closed(uint32_t h2_error);
    void on_failed(HttpError error, bool unreached, const char* detail);
    void on_ready();

    Context ctx_;
    const int id_;
    std::string request_;
    std::string body_;
    std::unique_ptr<H2Request> rendered_;  // a templated target's fields, into request_
    const H2Request* request_fields_ = nullptr;
    std::unique_ptr<BodyReader> reader_;
    size_t origin_ = 0;
    size_t target_ = 0;
    HttpClock::time_point from_{};
    HttpClock::time_point sent_{};
    HttpClock::time_point deadline_ = HttpClock::time_point::max();
    bool busy_ = false;
    bool preconnecting_ = false;
    int resends_ = 0;  // refused by the server unseen (GOAWAY, REFUSED_STREAM), sent again
    // Set by its connection while the request is on it.
    H2Connection* conn_ = nullptr;
    size_t attached_slot_ = SIZE_MAX;
    int32_t stream_id_ = 0;  // 0 until submitted
    int status_ = 0;
    uint64_t body_bytes_ = 0;
    size_t body_sent_ = 0;
};

}  // namespace perflab
