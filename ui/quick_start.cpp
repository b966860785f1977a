// SPDX-License-Identifier: MIT
#include "quick_start.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace perflab {

RunSpec quick_start_spec(const std::string& server, int seconds) {
    const double third = seconds / 3.0;
    const nlohmann::json j = {
        {"name", "Quick start: cache-aside against PerfLab's own memcached"},
        {"kind", "cache"},
        {"tick_ms", 1000},
        {"tags", {"demo", "quick-start"}},
        {"notes", "Started from the Quick start button; memcached was started by PerfLab."},
        {"phases",
         {{{"duration_s", third}, {"concurrency", 4}},
          {{"duration_s", third}, {"rate", 5000}, {"concurrency", 4}},
          {{"duration_s", third}, {"rate", 5000}, {"rate_to", 20000}, {"concurrency", 4}}}},
        {"cache",
         {{"servers", {server}},
          {"workload", "cache-aside"},
          {"keys", {{"count", 20000}, {"prefix", "quick:"}}},
          {"value_size", {{"min", 128}, {"max", 4096}}},
          {"ttl_s", 300}}},
        {"probes", nlohmann::json::array({nlohmann::json::object({{"local", true}}),
                                          nlohmann::json::object({{"memcached", server}})})}};
    SpecResult parsed = parse_spec(j);
    if (!parsed) throw std::logic_error("quick start spec invalid: " + parsed.error_text());
    return *parsed.spec;
}

}  // namespace perflab
