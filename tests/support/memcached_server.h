// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "process.h"

namespace perflab::test {

// A real memcached on a free loopback port, one thread, started and stopped by the test.
class MemcachedServer {
  public:
    explicit MemcachedServer(int memory_mb = 64, std::vector<std::string> extra_args = {});
    ~MemcachedServer();

    uint16_t port() const { return port_; }
    std::string endpoint() const { return "127.0.0.1:" + std::to_string(port_); }

    void stop();   // waits until the process is gone
    void start();  // again, on the same port
    // SIGSTOP / SIGCONT: a server that stops answering for a while, its connections open.
    void pause();
    void resume();

    // `stats` over the text protocol.
    std::map<std::string, std::string> stats() const;
    uint64_t stat(const std::string& name) const;
    // Every key the server holds, as its LRU crawler lists them (`lru_crawler metadump all`).
    std::set<std::string> keys() const;

  private:
    // Sends a text-protocol command; returns the reply up to and including its "END\r\n".
    std::string ask(const std::string& command) const;

    int memory_mb_;
    std::vector<std::string> extra_args_;
    uint16_t port_;
    Process process_;
};

// Every counter a run should reproduce, as seen by the server.
struct CacheCounters {
    uint64_t cmd_get = 0, cmd_set = 0, get_hits = 0, get_misses = 0;
};
CacheCounters cache_counters(const MemcachedServer& server);

}  // namespace perflab::test
