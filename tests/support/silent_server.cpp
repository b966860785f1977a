// SPDX-License-Identifier: MIT
#include "silent_server.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>

namespace perflab::test {

SilentServer::SilentServer() {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&a), len) != 0 ||
        ::listen(listener_, 16) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
        throw std::runtime_error("silent server: cannot listen on loopback");
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { accept_loop(); });
}

SilentServer::~SilentServer() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    thread_.join();
    for (int fd : clients_)
        ::close(fd);
    ::close(listener_);
}

void SilentServer::accept_loop() {
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            if (stop_) return;
        }
        // Short polls, so that the destructor is noticed.
        pollfd p{listener_, POLLIN, 0};
        if (::poll(&p, 1, 20) <= 0) continue;
        const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0) continue;
        std::lock_guard lock(mutex_);
        clients_.push_back(fd);
        accepted_cv_.notify_all();
    }
}

int SilentServer::accepted() {
    std::lock_guard lock(mutex_);
    return int(clients_.size());
}

bool SilentServer::wait_for_connections(int count, int timeout_ms) {
    std::unique_lock lock(mutex_);
    return accepted_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                                 [&] { return int(clients_.size()) >= count; });
}

}  // namespace perflab::test
