// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
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

// A Redis Cluster of `masters` redis-server nodes on free loopback ports (each with its bus on
// another free port), made by redis-cli --cluster create without replicas; ready once every
// node's CLUSTER INFO says cluster_state:ok. `node_args`, if given, adds options to node i's
// redis-server (a TLS port of its own).
class RedisCluster {
  public:
    explicit RedisCluster(int masters = 3,
                          const std::function<std::vector<std::string>(size_t)>& node_args = {});

    size_t size() const { return nodes_.size(); }
    const RedisServer& node(size_t i) const { return *nodes_.at(i); }
    std::string node_id(size_t i) const;  // CLUSTER MYID
    // Moves `slots` slots and their keys from node `from` to node `to` (redis-cli --cluster
    // reshard), then waits until the cluster is ok again.
    void reshard(size_t from, size_t to, int slots) const;
    // Whether every node says cluster_state:ok and knows every node.
    bool ok() const;
    // A field of a command's INFO commandstats line ("calls", "rejected_calls"), summed over
    // the nodes.
    uint64_t command_stat(const std::string& command, const std::string& field) const;
    uint64_t info_sum(const std::string& section, const std::string& name) const;

  private:
    std::vector<std::unique_ptr<RedisServer>> nodes_;
};

// A field of a command's INFO commandstats line on one server; 0 if the command never ran.
uint64_t command_stat(const RedisServer& server, const std::string& command,
                      const std::string& field);

}  // namespace perflab::test
