// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace perflab {

// One tick of one probe (a host, a memcached server, a JVM), on the run's clock. Values are a
// flat JSON object whose keys the probes library documents ("cpu_user", "load1",
// "mem_used", "evictions", "old_pct"...), so the store and the charts take new figures
// without a schema change.
struct ProbeSample {
    int64_t t_ms = 0;
    std::string source;  // "local", "user@host:22", "memcached 127.0.0.1:11211", ...
    std::string kind;    // "host", "memcached", "jvm"
    nlohmann::json values = nlohmann::json::object();
    bool gap = false;  // the probe could not sample this tick (connection lost...)
};

}  // namespace perflab
