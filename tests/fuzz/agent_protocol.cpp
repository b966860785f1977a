// SPDX-License-Identifier: MIT
// A line from an agent as the controller reads it (agent_link.cpp): JSON, and a tick's sample
// merged into its phase's figures. sample_from_json documents std::runtime_error for a
// malformed sample; anything else gets through.
#include "agent_protocol.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto record = nlohmann::json::parse(data, data + size, nullptr, false);
    if (!record.is_object() || !record.contains("sample")) return 0;
    perflab::IntervalSample phase;
    try {
        phase.merge(perflab::sample_from_json(record["sample"]));
    } catch (const std::runtime_error&) {
        return 0;
    }
    // What the controller's tick reports ask of the merged figures.
    phase.latency().percentile(99.9);
    phase.service().percentile(99.9);
    return 0;
}
