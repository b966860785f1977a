// SPDX-License-Identifier: MIT
#include "ssh_cancel.h"

#include <sys/socket.h>

namespace perflab {

void SshCancel::cancel() {
    std::lock_guard lock(mutex_);
    cancelled_.store(true);
    for (int fd : fds_)
        ::shutdown(fd, SHUT_RDWR);
}

void SshCancel::add(int fd) {
    std::lock_guard lock(mutex_);
    fds_.insert(fd);
    if (cancelled_.load()) ::shutdown(fd, SHUT_RDWR);
}

void SshCancel::remove(int fd) {
    std::lock_guard lock(mutex_);
    fds_.erase(fd);
}

}  // namespace perflab
