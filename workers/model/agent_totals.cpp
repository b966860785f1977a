// SPDX-License-Identifier: MIT
#include "agent_totals.h"

#include "format.h"

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

}  // namespace perflab
