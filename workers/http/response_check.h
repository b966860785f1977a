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

class BodyReader;

// A target's "expect", built once when the run starts and then only read, by every worker
// thread at once (std::regex and nlohmann::json are safe to read concurrently).
class ResponseCheck {
  public:
    explicit ResponseCheck(const HttpExpect& expect);

    bool reads_body() const { return contains_ || keeps_body(); }
    // body_regex and json need the whole body; body_contains alone only a window of it.
    bool keeps_body() const { return regex_ || path_; }
    const std::optional<std::string>& contains() const { return contains_; }
    bool judges_status() const { return !status_.empty(); }
    // The checks this response failed, as bits 1 << CheckKind; `body` read the response for
    // this check.
    unsigned failures(int status, const BodyReader& body, uint64_t body_bytes) const;

  private:
    bool json_matches(std::string_view body) const;

    std::vector<int> status_;
    std::optional<std::string> contains_;
    std::optional<std::regex> regex_;
    std::optional<JsonPath> path_;
    std::optional<nlohmann::json> equals_;
    std::optional<uint64_t> max_bytes_;
};

// What a connection keeps of a response's body for its target's checks, chunk by chunk as
// it arrives: nothing when no check reads it (max_bytes needs its length alone), the whole
// body for body_regex and json, and for body_contains alone only a window as long as the
// text, until the text is found. Allocates only until its buffer has grown to the
// responses' size.
class BodyReader {
  public:
    // A new response for `check` (null: a target without checks); `keep`: the whole body is
    // kept whatever the check reads (a session step captures a value from it).
    void start(const ResponseCheck* check, bool keep = false);
    bool active() const { return keep_ || searching_; }
    void feed(std::string_view chunk);
    std::string_view body() const { return kept_; }  // the whole body when kept
    bool contains() const;                           // the check's body_contains text came

  private:
    const ResponseCheck* check_ = nullptr;
    std::string kept_;
    bool keep_ = false;
    bool searching_ = false;
    bool found_ = false;
};

}  // namespace perflab
