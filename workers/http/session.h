// SPDX-License-Identifier: MIT
#pragma once

// A session's steps as the engine runs them (model/spec.h SessionStep): each with its
// report name and its compiled capture.

#include <cstdint>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "model/json_path.h"
#include "model/spec.h"

namespace perflab {

// Takes a step's value from its response. Built once when the run starts and then only read,
// by every worker thread at once.
class ValueCapture {
  public:
    ValueCapture(const HttpCapture& capture, size_t var);

    size_t var() const { return var_; }  // index into HttpPlan::vars
    bool keeps_body() const { return header_.empty(); }
    const std::string& header() const { return header_; }  // empty: the value is in the body
    // Puts the value into `into` (its capacity reserved for kMaxCaptureBytes); false when the
    // response has none, or one that is longer or holds a line break, which would end a header
    // or the request line early.
    bool take(std::string_view body, std::string_view header_value, std::string& into) const;

  private:
    bool from_json(std::string_view body, std::string& into) const;

    size_t var_;
    std::string header_;
    std::optional<JsonPath> path_;
    std::optional<std::regex> regex_;
};

struct PreparedStep {
    size_t target = 0;
    std::string name;  // "step 1: GET http://...": the op name of its figures
    uint32_t think_min_ms = 0;
    uint32_t think_max_ms = 0;
    std::shared_ptr<const ValueCapture> capture;  // null: it captures nothing
};

}  // namespace perflab
