// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "probe.h"
#include "remote/ssh_session.h"

namespace perflab {

// The byte stream to a Redis server: a TCP connection from here, or one the `via` host makes.
// Each failure is a ProbeError naming what happened.
class RedisLink {
  public:
    virtual ~RedisLink() = default;
    virtual void send(std::string_view data) = 0;
    // Appends what arrives within timeout_ms, at least one byte.
    virtual void receive(std::string& out, int timeout_ms) = 0;
};

std::unique_ptr<RedisLink> tcp_redis_link(const std::string& host, int port, int timeout_ms);
// Through `session`, which outlives the link.
std::unique_ptr<RedisLink> ssh_redis_link(SshSession& session, const std::string& host, int port);

}  // namespace perflab
