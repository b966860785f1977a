// SPDX-License-Identifier: MIT
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace perflab {

// A redis-server of PerfLab's own on a free loopback port, for the Redis quick start: nothing
// persisted, its memory bounded (least recently used keys evicted past it), so a demo leaves
// no file and cannot fill the machine. Stopped (SIGTERM, then waited for) when this object goes.
class LocalRedis {
  public:
    // Throws std::runtime_error when redis-server is not installed or does not come up.
    explicit LocalRedis(int memory_mb = 256);
    ~LocalRedis();
    LocalRedis(const LocalRedis&) = delete;
    LocalRedis& operator=(const LocalRedis&) = delete;

    uint16_t port() const { return port_; }
    std::string endpoint() const { return "127.0.0.1:" + std::to_string(port_); }

  private:
    pid_t pid_ = -1;
    uint16_t port_ = 0;
};

// Whether redis-server is installed where LocalRedis looks for it.
bool redis_server_installed();

}  // namespace perflab
