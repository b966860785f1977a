// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

namespace perflab {

// Why a listener could not start: an address that is no IP literal with a port, or one the
// system refused (in use, not this host's).
class ListenError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A scrape endpoint for Prometheus: answers `GET /metrics` on one address with what `body`
// returns at that moment (the text exposition format), one connection at a time, on a thread
// of its own. Scrapers are few and each waits for its answer, so no more is needed; a client
// whose request and answer take more than two seconds is dropped, so a slow or trickling
// client cannot hold the others up.
class MetricsListener {
  public:
    // `address`: "127.0.0.1:9464", "[::1]:9464" (port 0: any free one). Throws ListenError.
    MetricsListener(const std::string& address, std::function<std::string()> body);
    ~MetricsListener();
    MetricsListener(const MetricsListener&) = delete;
    MetricsListener& operator=(const MetricsListener&) = delete;

    uint16_t port() const { return port_; }
    std::string address() const;  // as bound: host:port
    uint64_t scrapes() const;     // `GET /metrics` answered so far
    // Waits until more than `after` scrapes were answered, or `timeout`; returns whether.
    bool await_scrape(uint64_t after, std::chrono::milliseconds timeout);

  private:
    void serve();
    void answer(int fd);

    std::function<std::string()> body_;
    std::string host_;
    uint16_t port_ = 0;
    int listen_fd_ = -1;
    int wake_[2] = {-1, -1};  // a pipe: written to stop the thread's poll
    mutable std::mutex mutex_;
    std::condition_variable scraped_;
    uint64_t scrapes_ = 0;
    std::thread thread_;
};

}  // namespace perflab
