// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "process.h"

namespace perflab::test {

// A real redis-server on a free loopback port, no persistence, started and stopped by the
// test. `extra_args` are redis-server options ("--maxmemory", "8mb", "--requirepass", ...).
class RedisServer {
  public:
    explicit RedisServer(std::vector<std::string> extra_args = {});
    ~RedisServer();

    uint16_t port() const { return port_; }
    std::string endpoint() const { return "127.0.0.1:" + std::to_string(port_); }
    const std::string& dir() const { return dir_.path(); }

    void stop();   // waits until the process is gone
    void start();  // again, on the same port

    // Runs redis-cli against this server (with the password given by --requirepass, if any)
    // and returns what it printed; throws when redis-cli fails.
    std::string cli(const std::vector<std::string>& args) const;
    // `INFO section` as name → value ("commandstats": "cmdstat_get" → "calls=3,usec=...").
    std::map<std::string, std::string> info(const std::string& section = "all") const;
    uint64_t info_number(const std::string& section, const std::string& name) const;
    // `calls` of one command in INFO commandstats ("get", "set", "mget"); 0 if never called.
    uint64_t calls(const std::string& command) const;

  private:
    std::vector<std::string> extra_args_;
    std::string password_;
    TempDir dir_;
    uint16_t port_;
    Process process_;
};

}  // namespace perflab::test
