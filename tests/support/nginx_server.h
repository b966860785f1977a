// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "process.h"

namespace perflab::test {

// A real nginx on a free loopback port: one worker, its own config, pid, logs and temp paths
// in a TempDir. Serves /static.bin (6262 bytes), /ok (`return 200`), /limited.bin (the same
// file, limited to 400 r/s with a burst of 100 queued, the excess refused with 503) and logs
// every request, so a test can count what the server saw.
struct NginxOptions {
    bool tls = false;
    // HTTP/2 on the port: `listen … ssl http2` with tls, h2c (prior knowledge only) without.
    bool http2 = false;
    int keepalive_timeout_ms = 75000;
    int keepalive_requests = 1'000'000;  // after these, nginx closes (HTTP/2: GOAWAY)
    std::vector<std::string> also_on;
};

class NginxServer {
  public:
    static constexpr size_t kStaticBytes = 6262;

    // With tls, it serves https with a fresh self-signed certificate for 127.0.0.1. It
    // closes a keep-alive connection left idle for keepalive_timeout_ms (nginx's default).
    // also_on: more addresses of this host it listens on, on the same port (a network
    // namespace's far side, where agents reach it).
    explicit NginxServer(bool tls = false, int keepalive_timeout_ms = 75000,
                         std::vector<std::string> also_on = {});
    explicit NginxServer(const NginxOptions& options);
    ~NginxServer();

    uint16_t port() const { return port_; }
    std::string url(const std::string& path) const;
    std::string url_on(const std::string& address, const std::string& path) const;

    // Access-log lines: the requests nginx has finished (it logs just after replying).
    uint64_t requests() const;
    // Waits up to timeout_ms for requests() to reach n; returns the last count seen.
    uint64_t wait_for_requests(uint64_t n, int timeout_ms = 2000) const;

    // Logged requests for this path ("/ok").
    uint64_t requests_to(const std::string& path) const;
    // Distinct connections that carried the logged requests.
    uint64_t connections() const;
    // Logged requests whose protocol was this ("HTTP/2.0").
    uint64_t requests_over(const std::string& protocol) const;

    void stop();  // SIGTERM and wait

  private:
    TempDir dir_;
    uint16_t port_;
    bool tls_;
    Process process_;
};

// nginx's configuration for a directory and port; tls expects DIR/cert.pem and DIR/key.pem.
std::string nginx_config(const std::string& dir, uint16_t port, const NginxOptions& options);

}  // namespace perflab::test
