// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/secrets.h"
#include "model/spec.h"
#include "session.h"
#include "url.h"

namespace perflab {

class RequestProgram;
class ResponseCheck;

// A target ready to send: a static request's bytes are built once, here, and written as they
// are for every request; a templated one is rendered per request by its program.
struct PreparedTarget {
    std::string name;   // "GET http://127.0.0.1:8080/x": the op name in samples
    std::string bytes;  // a static request, whole: head and body
    size_t body_size = 0;
    size_t origin = 0;  // index into HttpPlan::origins
    bool head = false;  // a HEAD request: the response has no body whatever its length says
    // GET, HEAD, PUT, DELETE, OPTIONS, TRACE: safe to send again when a reused connection
    // turns out closed before any byte of the response came (RFC 9110 9.2.2).
    bool idempotent = false;
    std::shared_ptr<const RequestProgram> program;  // null: a static request
    std::shared_ptr<const ResponseCheck> check;     // null: no "expect"
};

// What every worker thread shares, read-only once the run starts.
struct HttpPlan {
    HttpSpec spec;
    std::vector<Url> origins;  // distinct scheme://host:port of the targets
    std::vector<PreparedTarget> targets;
    // Templates draw from streams of the run's seed; this machine's share of an agents run
    // keeps their request numbers ({{seq}}, CSV rows) apart from the other agents'.
    uint64_t seed = 0;
    int share = 0;
    int shares = 1;
    size_t max_request_bytes = 0;  // the largest rendered request (0: all static)
    size_t csv_sources = 0;        // the most CSV sources one request reads
    // The session's steps (empty: none) and the names its steps capture, in order.
    std::vector<PreparedStep> steps;
    std::vector<std::string> vars;
    // The op names of the figures: the steps' with a session, else the targets'.
    std::vector<std::string> names() const;
    bool any_tls() const;
};

// Validates the targets and builds their requests, compiling templates and loading their CSV
// files; throws std::runtime_error naming the field ("http.targets[0].url: ...") for a
// malformed URL or header, an unreadable body or CSV file, a missing CSV column or an unset
// {{env NAME}}.
HttpPlan prepare_http(const HttpSpec& spec, const Environment& env = process_environment);

}  // namespace perflab
