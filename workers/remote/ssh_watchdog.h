// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace perflab {

// Holds one SSH step (connecting, running a command) to its deadline: unless destroyed first, a
// thread of its own shuts `fd` down when `deadline` passes and sets `expired`, and the libssh
// call blocked on that socket returns with an error. libssh's own timeout bounds each wait, not
// a step made of many (a key exchange, then authentication; output that trickles in), so it
// cannot be the deadline.
class SshWatchdog {
  public:
    SshWatchdog(int fd, std::chrono::steady_clock::time_point deadline, std::atomic<bool>& expired);
    ~SshWatchdog();
    SshWatchdog(const SshWatchdog&) = delete;
    SshWatchdog& operator=(const SshWatchdog&) = delete;

  private:
    std::mutex mutex_;
    std::condition_variable wake_;
    bool done_ = false;
    std::thread thread_;
};

}  // namespace perflab
