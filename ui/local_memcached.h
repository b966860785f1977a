// SPDX-License-Identifier: MIT
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace perflab {

// A memcached of PerfLab's own on a free loopback port, for the demo and the quick start.
// Stopped (SIGTERM, then waited for) when this object goes.
class LocalMemcached {
  public:
    // Throws std::runtime_error when memcached is not installed or does not come up.
    explicit LocalMemcached(int memory_mb = 64);
    ~LocalMemcached();
    LocalMemcached(const LocalMemcached&) = delete;
    LocalMemcached& operator=(const LocalMemcached&) = delete;

    uint16_t port() const { return port_; }
    std::string endpoint() const { return "127.0.0.1:" + std::to_string(port_); }

  private:
    pid_t pid_ = -1;
    uint16_t port_ = 0;
};

// A TCP port on 127.0.0.1 that was free a moment ago.
uint16_t free_loopback_port();
bool wait_for_port(uint16_t port, int timeout_ms);
// Runs `args` (args[0] the binary's path), a server told to listen on 127.0.0.1:port, and
// waits until it does; throws std::runtime_error naming `name` when it does not come up.
pid_t start_local_server(std::vector<std::string> args, uint16_t port, const std::string& name);
// SIGTERM, then waits for it to go.
void stop_local_server(pid_t pid);

}  // namespace perflab
