// SPDX-License-Identifier: MIT
#include "phase_load_report.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "format.h"

namespace perflab {

std::vector<CacheLoad> phase_loads(const RunSpec& spec) {
    const bool own = std::any_of(spec.phases.begin(), spec.phases.end(),
                                 [](const Phase& p) { return p.cache != nullptr; });
    std::vector<CacheLoad> out;
    if (!spec.cache || !own) return out;
    for (const auto& p : spec.phases)
        out.push_back(phase_load(*spec.cache, p));
    return out;
}

std::string cache_load_text(const CacheLoad& l) {
    std::string s = l.commands ? "commands" : to_string(l.workload);
    if (l.workload == CacheWorkload::ratio && !l.commands)
        s += " " + std::to_string(l.get_ratio) + ":" + std::to_string(l.set_ratio);
    s += ", " + std::to_string(l.keys.count) + " keys " + l.keys.prefix + "N " +
         to_string(l.keys.distribution);
    if (l.keys.distribution == KeyDistribution::zipf) s += " " + format_fixed(l.keys.zipf_s, 2);
    s += ", values ";
    if (l.value_size.weighted.empty()) {
        s += std::to_string(l.value_size.min);
        if (l.value_size.max != l.value_size.min) s += ".." + std::to_string(l.value_size.max);
    } else {
        for (size_t i = 0; i < l.value_size.weighted.size(); ++i)
            s += (i ? "/" : "") + std::to_string(l.value_size.weighted[i].first);
    }
    s += " B";
    if (l.value_size.random_bytes) s += " random";
    return s;
}

nlohmann::json cache_load_json(const CacheLoad& l) {
    nlohmann::json keys = {{"count", l.keys.count},
                           {"prefix", l.keys.prefix},
                           {"distribution", to_string(l.keys.distribution)}};
    if (l.keys.distribution == KeyDistribution::zipf) keys["zipf_s"] = l.keys.zipf_s;
    if (l.keys.mean) keys["mean"] = *l.keys.mean;
    if (l.keys.stddev) keys["stddev"] = *l.keys.stddev;
    nlohmann::json sizes = nlohmann::json::object();
    if (l.value_size.weighted.empty())
        sizes = {{"min", l.value_size.min}, {"max", l.value_size.max}};
    else
        sizes["weights"] = l.value_size.weighted;
    sizes["bytes"] = l.value_size.random_bytes ? "random" : "compressible";
    nlohmann::json j = {{"workload", l.commands ? "commands" : to_string(l.workload)},
                        {"keys", keys},
                        {"value_size", sizes}};
    if (l.workload == CacheWorkload::ratio && !l.commands) {
        j["get_ratio"] = l.get_ratio;
        j["set_ratio"] = l.set_ratio;
    }
    return j;
}

}  // namespace perflab
