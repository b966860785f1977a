// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "http_stats.h"

namespace perflab {

using HttpClock = std::chrono::steady_clock;

// How one request ended: a status code, or an error without one.
struct HttpOutcome {
    int status = 0;
    std::optional<HttpError> error;
    uint64_t body_bytes = 0;
    HttpClock::time_point at{};    // when it ended: the one clock read of a request's end
    bool unreached = false;        // it failed before a connection to the server was made
    unsigned failed_checks = 0;    // bits 1 << CheckKind
    bool status_checked = false;   // the target's checks, not 200..399, judged the status
    const char* detail = nullptr;  // why, when the error kind alone would mislead (unreached)
};

// A worker's channel carries one request at a time: an HTTP/1.1 connection, or one stream
// slot of HTTP/2. The worker that owns it hears from it here, on the worker's thread.
template <class Channel>
class ChannelOwner {
  public:
    virtual void on_complete(Channel& channel, const HttpOutcome& outcome) = 0;
    // A channel opened ahead of the load (preconnect) is ready, or failed to open.
    virtual void on_ready(Channel& channel) = 0;

  protected:
    ~ChannelOwner() = default;
};

}  // namespace perflab
