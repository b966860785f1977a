// SPDX-License-Identifier: MIT
#include <cstdio>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "local_memcached.h"
#include "local_redis.h"

namespace perflab {

namespace {

// A small cache-aside run: a closed-model step, then a constant rate, so both show.
nlohmann::json demo_spec(const std::string& server, int seconds, bool redis) {
    const double half = seconds / 2.0;
    nlohmann::json spec = {{"name", redis ? "Demo: cache-aside against a local redis-server"
                                          : "Demo: cache-aside against a local memcached"},
                           {"kind", "cache"},
                           {"tick_ms", 1000},
                           {"tags", {"demo"}},
                           {"phases",
                            {{{"duration_s", half}, {"concurrency", 4}},
                             {{"duration_s", half}, {"rate", 5000}, {"concurrency", 4}}}},
                           {"cache",
                            {{"servers", {server}},
                             {"workload", "cache-aside"},
                             {"keys", {{"count", 20000}, {"prefix", "demo:"}}},
                             {"value_size", {{"min", 128}, {"max", 4096}}},
                             {"ttl_s", 300}}}};
    // The server's own view beside the run's: its hit rate, memory and evictions.
    if (redis) {
        spec["cache"]["protocol"] = "redis";
        spec["probes"] = {{{"redis", server}}};
    }
    return spec;
}

int run_demo(const std::string& server, const DemoOptions& options) {
    const SpecResult parsed = parse_spec(demo_spec(server, options.seconds, options.redis));
    if (!parsed) {
        std::fprintf(stderr, "perflab: demo spec invalid:\n%s", parsed.error_text().c_str());
        return kExitFailed;
    }
    return run_spec(*parsed.spec, RunOptions{});
}

}  // namespace

int demo_command(const DemoOptions& options) {
    try {
        if (options.redis) {
            LocalRedis server;
            std::printf("demo: redis-server started on %s\n", server.endpoint().c_str());
            return run_demo(server.endpoint(), options);
        }
        LocalMemcached server;
        std::printf("demo: memcached started on %s\n", server.endpoint().c_str());
        return run_demo(server.endpoint(), options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "perflab: demo: %s\n", e.what());
        return kExitFailed;
    }
}

}  // namespace perflab
