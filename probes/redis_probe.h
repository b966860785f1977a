// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "probe.h"
#include "redis_info.h"
#include "redis_link.h"
#include "remote/ssh_session.h"

namespace perflab {

// A Redis (or Valkey) server's own view, from `INFO all` each tick, one request on one
// connection: what memcached's probe shows, in memcached's names where the meaning is the same.
// Values of a "redis" ProbeSample:
//
//   instantaneous_ops_per_sec, used_memory, maxmemory,      as the server reports them
//   connected_clients, blocked_clients
//   total_commands_processed, keyspace_hits, keyspace_misses, evicted_keys, expired_keys,
//   evictions (= evicted_keys)                               counters since the server started
//   ops_ps, keyspace_hits_ps, keyspace_misses_ps, evictions_ps, expired_keys_ps   per second
//   ops_delta, keyspace_hits_delta, ..._delta               the counts this tick
//   hit_pct                                                  hits / lookups this tick, %
//   mem_pct                                                  used_memory / maxmemory, % (a limit)
//   cpu_pct                                                  used_cpu_user + sys, % of a core
//   latency_CMD_p50_us, _p99_us, _p999_us                    Redis 7's latencystats per command
//                                                            (since the server's start or its
//                                                            last CONFIG RESETSTAT)
struct RedisTarget {
    std::string host;
    int port = 6379;
    std::string password;  // the value itself: memory only
    std::optional<SshTarget> via;
    SshOptions ssh_options;
    int timeout_ms = 2000;
};

class RedisProbe : public Probe {
  public:
    explicit RedisProbe(RedisTarget target);
    ~RedisProbe() override;
    std::string source() const override;
    std::string kind() const override { return "redis"; }
    void open() override;  // throws ProbeError when the server does not answer or refuses
    ProbeReading poll() override;
    void close() override;

  private:
    using Clock = std::chrono::steady_clock;
    std::map<std::string, std::string> fetch();  // throws ProbeError
    void connect();
    RedisProbeReply request(const std::string& command);

    RedisTarget target_;
    std::unique_ptr<SshSession> ssh_;
    std::unique_ptr<RedisLink> link_;  // before ssh_ goes
    std::map<std::string, std::string> last_;
    Clock::time_point last_time_{};
};

}  // namespace perflab
