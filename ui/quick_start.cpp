// SPDX-License-Identifier: MIT
#include "quick_start.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace perflab {

namespace {

nlohmann::json cache_aside_json(const std::string& server, int seconds) {
    const double third = seconds / 3.0;
    return {{"name", "Quick start: cache-aside against PerfLab's own memcached"},
            {"kind", "cache"},
            {"tick_ms", 1000},
            {"tags", {"demo", "quick-start"}},
            {"notes", "Started from the Quick start button; memcached was started by PerfLab."},
            {"phases",
             {{{"duration_s", third}, {"concurrency", 4}},
              {{"duration_s", third}, {"rate", 5000}, {"concurrency", 4}},
              {{"duration_s", third}, {"rate", 5000}, {"rate_to", 20000}, {"concurrency", 4}}}},
            {"cache",
             {{"servers", server.empty() ? nlohmann::json::array() : nlohmann::json{server}},
              {"workload", "cache-aside"},
              {"keys", {{"count", 20000}, {"prefix", "quick:"}}},
              {"value_size", {{"min", 128}, {"max", 4096}}},
              {"ttl_s", 300}}},
            {"probes", server.empty()
                           ? nlohmann::json::array({{{"local", true}}})
                           : nlohmann::json::array({{{"local", true}}, {{"memcached", server}}})}};
}

}  // namespace

RunSpec quick_start_spec(const std::string& server, int seconds) {
    SpecResult parsed = parse_spec(cache_aside_json(server, seconds));
    if (!parsed) throw std::logic_error("quick start spec invalid: " + parsed.error_text());
    return *parsed.spec;
}

RunSpec redis_quick_start_spec(nlohmann::json j, const std::string& server, int seconds) {
    j["name"] = "Quick start: " + j.value("name", std::string("Redis")) +
                " against PerfLab's own redis-server";
    j["tags"].push_back("demo");
    j["tags"].push_back("quick-start");
    j["notes"] =
        "Started from the Quick start's Redis demo; redis-server was started by PerfLab, with "
        "nothing persisted and its memory bounded (least recently used keys evicted).";
    auto& phases = j["phases"];
    for (auto& phase : phases)
        phase["duration_s"] = double(seconds) / double(phases.size());
    j["cache"]["servers"] = nlohmann::json::array({server});
    j["probes"] = nlohmann::json::array({{{"local", true}}, {{"redis", server}}});
    SpecResult parsed = parse_spec(j);
    if (!parsed) throw std::logic_error("Redis quick start spec invalid: " + parsed.error_text());
    return *parsed.spec;
}

nlohmann::json first_form_json() {
    nlohmann::json j = cache_aside_json({}, 30);
    j["name"] = "My first cache run";
    j.erase("tags");
    j.erase("notes");
    return j;
}

}  // namespace perflab
