// SPDX-License-Identifier: MIT
#include "node_ticks.h"

namespace perflab {

nlohmann::json node_ticks_json(const std::map<std::string, NodeTick>& nodes) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [name, n] : nodes)
        out[name] = {{"calls", n.calls},   {"errors", n.errors}, {"hits", n.hits},
                     {"misses", n.misses}, {"moved", n.moved},   {"ask", n.asked}};
    return out;
}

namespace {

bool count(const nlohmann::json& j, const char* key, uint64_t& out) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_unsigned()) return false;
    out = it->get<uint64_t>();
    return true;
}

}  // namespace

std::optional<std::map<std::string, NodeTick>> node_ticks_from_json(const nlohmann::json& j) {
    if (!j.is_object()) return std::nullopt;
    std::map<std::string, NodeTick> out;
    for (const auto& [name, n] : j.items()) {
        if (!n.is_object()) return std::nullopt;
        NodeTick& t = out[name];
        const auto calls = n.find("calls");
        if (calls == n.end() || !calls->is_object()) return std::nullopt;
        for (const auto& [op, c] : calls->items()) {
            if (!c.is_number_unsigned()) return std::nullopt;
            t.calls[op] = c.get<uint64_t>();
        }
        if (!count(n, "errors", t.errors) || !count(n, "hits", t.hits) ||
            !count(n, "misses", t.misses) || !count(n, "moved", t.moved) ||
            !count(n, "ask", t.asked))
            return std::nullopt;
    }
    return out;
}

}  // namespace perflab
