// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace perflab::test {

// A small keep-alive HTTP/1.1 server on 127.0.0.1 for the faults nginx will not produce on
// demand: a fixed delay, a stall, resets, connections closed before the reply, garbage and
// 500s. It runs on its own thread, counts the requests it reads and keeps each one's head and
// body (by its Content-Length). An HTTP/1.0 request's connection is closed after its reply, so
// its page can be a Prometheus probe's target.
class HttpTestServer {
  public:
    enum class Mode {
        ok,           // "200 OK", body "ok" or the one set_reply_body gave
        error_500,    // "500 Internal Server Error"
        reset,        // reads the request, then resets the connection (RST)
        close_early,  // reads the request, then closes without a reply
        garbage,      // answers bytes that are not HTTP, then closes
        // "200 OK" without "Connection: close", then closes: a server dropping kept-alive
        // connections as soon as they are idle
        ok_then_close,
    };

    // A request as it came over the wire.
    struct Request {
        std::string head;  // request line and headers, up to the blank line
        std::string body;
    };

    // When the server had read a request (after the client sent it), and when it began writing
    // a reply it wrote whole (before the client read it; max() if it wrote none).
    struct Exchange {
        std::chrono::steady_clock::time_point received;
        std::chrono::steady_clock::time_point replied;
    };

    // Answers a request in place of Mode::ok: the whole reply, status line to body.
    // `connection` numbers the server's connections from 0 in the order it accepted them.
    // Called on the server's thread.
    using Responder = std::function<std::string(uint64_t connection, const Request& request)>;

    // Listens on `port`, or on a free port when 0.
    explicit HttpTestServer(uint16_t port = 0);
    ~HttpTestServer();
    HttpTestServer(const HttpTestServer&) = delete;
    HttpTestServer& operator=(const HttpTestServer&) = delete;

    uint16_t port() const { return port_; }
    std::string url(const std::string& path = "/") const;

    void set_mode(Mode mode) { mode_.store(mode); }
    void set_delay_ms(int ms) { delay_ms_.store(ms); }
    // The body of Mode::ok's replies from now on.
    void set_reply_body(std::string body);
    // Mode::ok's replies come from `responder` from now on.
    void set_responder(Responder responder);
    // Holds every reply due in the next `d` until its end, as a stalled server does.
    void stall_for(std::chrono::milliseconds d);
    uint64_t requests() const { return requests_.load(); }
    uint64_t connections() const { return accepted_.load(); }
    // How many connections were open to it (made with the kernel, accepted or not yet) when
    // the first request was read.
    uint64_t connections_before_first_request() const { return accepted_first_.load(); }
    std::vector<Exchange> exchanges() const;
    // The request line and headers of the last request read, as they came over the wire.
    std::string last_request_head() const;
    // Every request read so far, in the order the server read them.
    std::vector<Request> received() const;

    // Drops every connection and the listener at once, as a killed process would.
    void kill();

  private:
    class Impl;
    friend class Impl;
    std::unique_ptr<Impl> impl_;
    uint16_t port_ = 0;
    std::atomic<Mode> mode_{Mode::ok};
    std::atomic<int> delay_ms_{0};
    std::atomic<int64_t> stall_until_ns_{0};
    std::atomic<uint64_t> requests_{0};
    std::atomic<uint64_t> accepted_{0};
    std::atomic<uint64_t> accepted_first_{0};
    mutable std::mutex log_mutex_;
    std::vector<Exchange> log_;
    mutable std::mutex head_mutex_;
    std::string last_head_;
    std::vector<Request> received_;
    std::string reply_body_ = "ok";
    Responder responder_;
};

}  // namespace perflab::test
