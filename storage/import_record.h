// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace perflab {

// One request as another load tool recorded it.
struct ImportRecord {
    int64_t sent_us = 0;  // when it was sent, µs since the epoch
    int64_t latency_us = 0;
    std::string op;     // the target: "GET http://..." (vegeta), the sampler's label (JMeter)
    int code = 0;       // HTTP status; 0 when no response came
    bool ok = true;     // the tool's verdict
    std::string error;  // why it failed, as the tool said
    uint64_t bytes_in = 0;
    uint64_t bytes_out = 0;
};

using RecordSink = std::function<void(ImportRecord&&)>;

// A results file that cannot be read as its format: where and what.
class ImportError : public std::runtime_error {
  public:
    ImportError(int64_t line, const std::string& field, const std::string& message)
        : std::runtime_error("line " + std::to_string(line) + ": " +
                             (field.empty() ? "" : field + ": ") + message) {}
    // For a document read whole, whose fields have a path but no line.
    ImportError(const std::string& field, const std::string& message)
        : std::runtime_error(field + ": " + message) {}
};

}  // namespace perflab
