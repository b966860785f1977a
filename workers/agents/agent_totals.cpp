// SPDX-License-Identifier: MIT
#include "agent_totals.h"

#include "base64.h"
#include "model/format.h"

namespace perflab {

std::string agent_totals_text(const AgentTotals& a) {
    const IntervalSample& t = a.totals;
    std::string text = "agent " + a.host + (a.lost ? " (lost)" : "") + ": " +
                       std::to_string(t.total_ops()) + " ops";
    for (const auto& [name, op] : t.ops)
        text += ", " + name + " " + std::to_string(op.count);
    text += ", " + std::to_string(t.total_errors()) + " errors, " + std::to_string(t.late) +
            " late, p99 " + format_latency_us(t.latency().percentile(99)) + ", CPU max " +
            format_fixed(a.cpu_max, 0) + "%";
    if (a.ticks > 0)
        text +=
            ", " + format_fixed(double(a.tick_bytes) / double(a.ticks) / 1024, 1) + " KiB a tick";
    return text;
}

nlohmann::json agent_totals_json(const std::vector<AgentTotals>& agents) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& a : agents) {
        nlohmann::json ops = nlohmann::json::object();
        for (const auto& [name, op] : a.totals.ops)
            ops[name] = {{"count", op.count},
                         {"errors", op.errors},
                         {"latency_hdr", base64_encode(op.latency.encode())}};
        out.push_back({{"host", a.host},
                       {"lost", a.lost},
                       {"cpu_max", a.cpu_max},
                       {"ops", ops},
                       {"sent", a.totals.sent},
                       {"late", a.totals.late},
                       {"dropped", a.totals.dropped},
                       {"ticks", a.ticks},
                       {"bytes_per_tick", a.ticks ? a.tick_bytes / a.ticks : 0},
                       {"clock_offset_ns", a.clock_offset_ns},
                       {"clock_uncertainty_ns", a.clock_uncertainty_ns}});
    }
    return out;
}

}  // namespace perflab
