// SPDX-License-Identifier: MIT
#include "agent_ticks.h"

namespace perflab {

nlohmann::json agent_ticks_json(const std::vector<AgentTick>& agents) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& a : agents)
        out.push_back({{"host", a.host},
                       {"ops", a.ops},
                       {"errors", a.errors},
                       {"late", a.late},
                       {"cpu_pct", a.cpu_pct < 0 ? nlohmann::json() : nlohmann::json(a.cpu_pct)},
                       {"behind", a.behind},
                       {"lost", a.lost}});
    return out;
}

std::optional<std::vector<AgentTick>> agent_ticks_from_json(const std::string& text) {
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_array()) return std::nullopt;
    std::vector<AgentTick> out;
    try {
        for (const auto& a : j) {
            AgentTick t;
            t.host = a.at("host").get<std::string>();
            t.ops = a.at("ops").get<uint64_t>();
            t.errors = a.at("errors").get<uint64_t>();
            t.late = a.at("late").get<uint64_t>();
            t.cpu_pct = a.at("cpu_pct").is_null() ? -1 : a.at("cpu_pct").get<double>();
            t.behind = a.at("behind").get<bool>();
            t.lost = a.at("lost").get<bool>();
            out.push_back(std::move(t));
        }
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
    return out;
}

}  // namespace perflab
