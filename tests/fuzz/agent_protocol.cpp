// SPDX-License-Identifier: MIT
// An agent's stdout as the controller reads it (agent_link.cpp): lines under a cap, each JSON,
// a tick's sample held under the agent's volume limits and merged into its phase's figures.
// LineBuffer documents LineTooLong, sample_from_json and AgentVolume std::runtime_error;
// anything else gets through.
#include "agent_protocol.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "agent_volume.h"
#include "fuzz_target.h"
#include "line_buffer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    perflab::LineBuffer lines(size_t(1) << 16);
    // The input's last line ends it, newline or not.
    lines.input() = perflab::fuzz::text_of(data, size) + "\n";
    perflab::AgentVolume volume;
    perflab::IntervalSample phase;
    try {
        while (const auto line = lines.next()) {
            const auto record = nlohmann::json::parse(*line, nullptr, false);
            if (!record.is_object() || !record.contains("sample")) continue;
            const perflab::IntervalSample s = perflab::sample_from_json(record["sample"]);
            volume.add(s);
            phase.merge(s);
        }
    } catch (const std::runtime_error&) {
        return 0;
    }
    // What the controller's tick reports ask of the merged figures.
    phase.latency().percentile(99.9);
    phase.service().percentile(99.9);
    return 0;
}
