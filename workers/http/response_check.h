// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include "http_stats.h"
#include "model/json_path.h"
#include "model/spec.h"

namespace perflab {

// A target's "expect", built once when the run starts and then only read, by every worker
// thread at once (std::regex and nlohmann::json are safe to read concurrently).
class ResponseCheck {
  public:
    explicit ResponseCheck(const HttpExpect& expect);

    // The connection keeps a response's body only when a check reads it; max_bytes needs
    // its length alone.
    bool needs_body() const { return contains_ || regex_ || path_; }
    bool judges_status() const { return !status_.empty(); }
    // The checks this response failed, as bits 1 << CheckKind. `body` is empty unless
    // needs_body().
    unsigned failures(int status, std::string_view body, uint64_t body_bytes) const;

  private:
    bool json_matches(std::string_view body) const;

    std::vector<int> status_;
    std::optional<std::string> contains_;
    std::optional<std::regex> regex_;
    std::optional<JsonPath> path_;
    std::optional<nlohmann::json> equals_;
    std::optional<uint64_t> max_bytes_;
};

}  // namespace perflab
