// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <map>
#include <string>

#include "probe.h"

namespace perflab {

// A memcached server's own view, from `stats` each tick: memory filling up and evictions on
// the run's time axis. Values of a "memcached" ProbeSample:
//
//   curr_items, bytes, limit_maxbytes, curr_connections      as the server reports them
//   mem_pct                                                  bytes / limit_maxbytes, %
//   evictions, get_hits, get_misses, cmd_get, cmd_set        counters since the server started
//   evictions_ps, get_hits_ps, get_misses_ps, cmd_get_ps, cmd_set_ps   per second this tick
//   hit_pct                                                  hits / gets this tick, %
//   cpu_pct                                                  rusage user + system, % of a core
//   rusage_user, rusage_system                               seconds since start
class MemcachedProbe : public Probe {
  public:
    MemcachedProbe(std::string host, int port, int timeout_ms = 2000);
    ~MemcachedProbe() override;
    std::string source() const override;
    std::string kind() const override { return "memcached"; }
    void open() override;  // throws ProbeError when the server does not answer
    ProbeReading poll() override;
    void close() override;

  private:
    using Clock = std::chrono::steady_clock;
    std::map<std::string, std::string> fetch();  // throws ProbeError
    void connect();

    std::string host_;
    int port_;
    int timeout_ms_;
    int fd_ = -1;
    std::map<std::string, std::string> last_;
    Clock::time_point last_time_{};
};

// Parses a `stats` reply ("STAT name value" lines up to END).
std::map<std::string, std::string> parse_memcached_stats(std::string_view reply);

// The sample values from two `stats` replies `seconds` apart (see MemcachedProbe).
nlohmann::json memcached_values(const std::map<std::string, std::string>& before,
                                const std::map<std::string, std::string>& after, double seconds);

}  // namespace perflab
