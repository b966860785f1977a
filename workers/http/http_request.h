// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

#include "model/spec.h"
#include "url.h"

namespace perflab {

// A target ready to send: its request bytes are built once, here, and written as they are
// for every request.
struct PreparedTarget {
    std::string name;   // "GET http://127.0.0.1:8080/x": the op name in samples
    std::string bytes;  // the whole request: head and body
    size_t body_size = 0;
    size_t origin = 0;  // index into HttpPlan::origins
    bool head = false;  // a HEAD request: the response has no body whatever its length says
    // GET, HEAD, PUT, DELETE, OPTIONS, TRACE: safe to send again when a reused connection
    // turns out closed before any byte of the response came (RFC 9110 9.2.2).
    bool idempotent = false;
};

// What every worker thread shares, read-only once the run starts.
struct HttpPlan {
    HttpSpec spec;
    std::vector<Url> origins;  // distinct scheme://host:port of the targets
    std::vector<PreparedTarget> targets;
    std::vector<std::string> names() const;
    bool any_tls() const;
};

// Validates the targets and builds their requests; throws std::runtime_error naming the
// field ("http.targets[0].url: ...") for a malformed URL, header or unreadable body file.
HttpPlan prepare_http(const HttpSpec& spec);

}  // namespace perflab
