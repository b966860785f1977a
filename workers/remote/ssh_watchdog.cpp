// SPDX-License-Identifier: MIT
#include "ssh_watchdog.h"

#include <sys/socket.h>

namespace perflab {

SshWatchdog::SshWatchdog(int fd, std::chrono::steady_clock::time_point deadline,
                         std::atomic<bool>& expired) {
    thread_ = std::thread([this, fd, deadline, &expired] {
        std::unique_lock lock(mutex_);
        if (wake_.wait_until(lock, deadline, [this] { return done_; })) return;
        expired.store(true);
        ::shutdown(fd, SHUT_RDWR);
    });
}

SshWatchdog::~SshWatchdog() {
    {
        std::lock_guard lock(mutex_);
        done_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

}  // namespace perflab
