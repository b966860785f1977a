// SPDX-License-Identifier: MIT
#include "tcp_connect.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace perflab {

namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kSlice = std::chrono::milliseconds(50);

// Waits for one address's connect to finish; 0 when connected, else an errno value.
int finish_connect(int fd, Clock::time_point deadline, const std::function<bool()>& stopped) {
    for (;;) {
        if (stopped()) return ECANCELED;
        const auto left = deadline - Clock::now();
        if (left <= Clock::duration::zero()) return ETIMEDOUT;
        pollfd p{fd, POLLOUT, 0};
        const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::min<Clock::duration>(left, kSlice));
        const int n = ::poll(&p, 1, int(wait.count()) + 1);
        if (n < 0 && errno != EINTR) return errno;
        if (n <= 0) continue;
        int error = 0;
        socklen_t len = sizeof error;
        if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0) return errno;
        return error;
    }
}

}  // namespace

int tcp_connect(const std::string& host, int port, Clock::time_point deadline,
                const std::function<bool()>& stopped, std::string& error) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
        rc != 0) {
        error = std::string("cannot resolve ") + host + ": " + ::gai_strerror(rc);
        return -1;
    }
    int last = ECONNREFUSED;
    for (addrinfo* a = found; a; a = a->ai_next) {
        if (stopped()) {
            last = ECANCELED;
            break;
        }
        const int fd =
            ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) {
            last = errno;
            continue;
        }
        last = ::connect(fd, a->ai_addr, a->ai_addrlen) == 0 ? 0 : errno;
        if (last == EINPROGRESS) last = finish_connect(fd, deadline, stopped);
        if (last == 0) {
            ::freeaddrinfo(found);
            return fd;
        }
        ::close(fd);
        if (last == ECANCELED || last == ETIMEDOUT) break;
    }
    ::freeaddrinfo(found);
    error = std::strerror(last);
    return -1;
}

}  // namespace perflab
