// SPDX-License-Identifier: MIT
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace perflab::test {

// A TCP listener on a free loopback port that accepts connections and never says a word: an
// SSH host whose sshd hangs. Connections stay open until the server is destroyed.
class SilentServer {
  public:
    SilentServer();
    ~SilentServer();
    SilentServer(const SilentServer&) = delete;
    SilentServer& operator=(const SilentServer&) = delete;

    uint16_t port() const { return port_; }
    std::string target() const { return "root@127.0.0.1:" + std::to_string(port_); }
    int accepted();
    // Waits until `count` connections were accepted; false when timeout_ms passed first.
    bool wait_for_connections(int count, int timeout_ms);

  private:
    void accept_loop();

    int listener_ = -1;
    uint16_t port_ = 0;
    std::mutex mutex_;
    std::condition_variable accepted_cv_;
    std::vector<int> clients_;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace perflab::test
