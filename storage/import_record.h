// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
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
    // The file records them (a JTL has "bytes" from JMeter 2.x, "sentBytes" from 3.1).
    bool bytes_in_known = true;
    bool bytes_out_known = true;
    // A JMeter Transaction Controller's row: the time of the requests in it, which have rows of
    // their own; counted apart, never as a request.
    bool transaction = false;
    int64_t line = 0;                      // in the file, for errors
    const char* time_field = "timestamp";  // the field sent_us came from, for errors
};

using RecordSink = std::function<void(ImportRecord&&)>;
// What an import skipped and the user should know: "line 9001: cut short, skipped".
using WarningSink = std::function<void(const std::string&)>;

// A line that did not read, at the end of a file with no newline after it: what a tool killed
// while writing leaves. It is skipped with a warning rather than refusing the whole file.
// `in` is the stream the line was just read from.
inline bool skip_cut_last_line(const std::istream& in, int64_t line, const WarningSink& warn) {
    if (!in.eof()) return false;
    if (warn) warn("line " + std::to_string(line) + ": cut short (the file ends in it), skipped");
    return true;
}

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
