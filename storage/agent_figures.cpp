// SPDX-License-Identifier: MIT
#include "agent_figures.h"

#include <stdexcept>

#include "model/base64.h"

namespace perflab {

namespace {

nlohmann::json one_agent(const AgentTotals& a) {
    nlohmann::json ops = nlohmann::json::object();
    for (const auto& [name, op] : a.totals.ops)
        ops[name] = {{"count", op.count},
                     {"errors", op.errors},
                     {"latency_hdr", base64_encode(op.latency.encode())}};
    return {{"host", a.host},
            {"lost", a.lost},
            {"cpu_max", a.cpu_max},
            {"ops", ops},
            {"sent", a.totals.sent},
            {"late", a.totals.late},
            {"dropped", a.totals.dropped},
            {"ticks", a.ticks},
            {"tick_bytes", a.tick_bytes},
            {"bytes_per_tick", a.ticks ? a.tick_bytes / a.ticks : 0},
            {"clock_offset_ns", a.clock_offset_ns},
            {"clock_uncertainty_ns", a.clock_uncertainty_ns}};
}

}  // namespace

nlohmann::json agent_totals_json(const std::vector<AgentTotals>& agents) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& a : agents)
        out.push_back(one_agent(a));
    return out;
}

AgentTotals agent_totals_from_json(const nlohmann::json& j) {
    AgentTotals a;
    try {
        a.host = j.at("host").get<std::string>();
        a.lost = j.value("lost", false);
        a.cpu_max = j.value("cpu_max", 0.0);
        a.ticks = j.value("ticks", uint64_t{0});
        a.tick_bytes = j.value("tick_bytes", uint64_t{0});
        a.clock_offset_ns = j.value("clock_offset_ns", int64_t{0});
        a.clock_uncertainty_ns = j.value("clock_uncertainty_ns", int64_t{0});
        a.totals.sent = j.value("sent", uint64_t{0});
        a.totals.late = j.value("late", uint64_t{0});
        a.totals.dropped = j.value("dropped", uint64_t{0});
        for (const auto& [name, op] : j.at("ops").items()) {
            OpSample& s = a.totals.ops[name];
            s.count = op.at("count").get<uint64_t>();
            s.errors = op.value("errors", uint64_t{0});
            const auto bytes = base64_decode(op.at("latency_hdr").get<std::string>());
            const auto latency = bytes ? Histogram::decode(*bytes) : std::nullopt;
            if (!latency) throw std::runtime_error("agent " + a.host + ": a bad histogram");
            s.latency = *latency;
        }
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(std::string("agent figures: ") + e.what());
    }
    return a;
}

void write_agents(Connection& db, int64_t run, const std::vector<AgentTotals>& agents) {
    Statement q(db,
                "INSERT OR REPLACE INTO run_agents (run_id, position, host, lost, "
                "clock_offset_ns, clock_uncertainty_ns, figures_json) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    for (size_t i = 0; i < agents.size(); ++i) {
        const AgentTotals& a = agents[i];
        q.bind(1, run).bind(2, int64_t(i)).bind(3, a.host).bind(4, int64_t{a.lost});
        q.bind(5, a.clock_offset_ns).bind(6, a.clock_uncertainty_ns);
        q.bind(7, one_agent(a).dump());
        q.run();
    }
}

std::vector<AgentTotals> read_agents(Connection& db, int64_t run) {
    Statement q(db, "SELECT figures_json FROM run_agents WHERE run_id = ?1 ORDER BY position");
    q.bind(1, run);
    std::vector<AgentTotals> out;
    while (q.step())
        out.push_back(agent_totals_from_json(nlohmann::json::parse(q.text(0))));
    return out;
}

}  // namespace perflab
