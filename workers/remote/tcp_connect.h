// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <functional>
#include <string>

namespace perflab {

// A connected, non-blocking TCP socket to host:port, trying each address the name resolves to
// in turn. Gives up at `deadline`, or soon after `stopped()` turns true (it is asked every few
// tens of milliseconds). Returns the fd, or -1 with `error` set.
int tcp_connect(const std::string& host, int port, std::chrono::steady_clock::time_point deadline,
                const std::function<bool()>& stopped, std::string& error);

}  // namespace perflab
