// SPDX-License-Identifier: MIT
#include <cstdio>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "local_memcached.h"

namespace perflab {

namespace {

// A small cache-aside run: a closed-model step, then a constant rate, so both show.
nlohmann::json demo_spec(const std::string& server, int seconds) {
    const double half = seconds / 2.0;
    return {{"name", "Demo: cache-aside against a local memcached"},
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
}

}  // namespace

int demo_command(const DemoOptions& options) {
    try {
        LocalMemcached server;
        std::printf("demo: memcached started on %s\n", server.endpoint().c_str());
        const SpecResult parsed = parse_spec(demo_spec(server.endpoint(), options.seconds));
        if (!parsed) {
            std::fprintf(stderr, "perflab: demo spec invalid:\n%s", parsed.error_text().c_str());
            return kExitFailed;
        }
        return run_spec(*parsed.spec, RunOptions{});
    } catch (const std::exception& e) {
        std::fprintf(stderr, "perflab: demo: %s\n", e.what());
        return kExitFailed;
    }
}

}  // namespace perflab
