// SPDX-License-Identifier: MIT
#include "metrics_listener.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "model/spec.h"

namespace perflab {

namespace {

// One scrape at a time is served: a client that trickles its request or reads its answer
// slowly holds the listener for at most this long.
constexpr std::chrono::milliseconds kExchangeLimit{2000};
constexpr size_t kMaxRequest = 8192;

using Clock = std::chrono::steady_clock;

// Waits for `events` on fd until the deadline; false when it passed first.
bool wait_for(int fd, short events, Clock::time_point deadline) {
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd, events, 0};
        const int n = ::poll(&p, 1, int(left.count()));
        if (n > 0) return true;
        if (n == 0 || errno != EINTR) return false;
    }
}

std::string system_error(const std::string& what) {
    return what + ": " + std::strerror(errno);
}

// Writes all of `data` before the deadline.
bool send_all(int fd, const std::string& data, Clock::time_point deadline) {
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
        if (n > 0) {
            done += size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (!wait_for(fd, POLLOUT, deadline)) return false;
            continue;
        }
        return false;
    }
    return true;
}

std::string response(const char* status, const char* type, const std::string& body) {
    return std::string("HTTP/1.1 ") + status + "\r\nContent-Type: " + type +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" +
           body;
}

}  // namespace

MetricsListener::MetricsListener(const std::string& address, std::function<std::string()> body)
    : body_(std::move(body)) {
    // Port 0 is parse_endpoint's error; here it asks for any free port.
    std::string text = address;
    const bool any_port = text.size() > 2 && text.ends_with(":0");
    if (any_port) text.back() = '1';
    const auto endpoint = parse_endpoint(text);
    if (!endpoint)
        throw ListenError("\"" + address +
                          "\" is not an address to listen on (HOST:PORT, such as 127.0.0.1:9464 "
                          "or [::1]:9464)");
    host_ = endpoint->host;
    sockaddr_storage storage{};
    socklen_t length = 0;
    const uint16_t port = any_port ? 0 : endpoint->port;
    if (auto* v4 = reinterpret_cast<sockaddr_in*>(&storage);
        ::inet_pton(AF_INET, host_.c_str(), &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        length = sizeof(sockaddr_in);
    } else if (auto* v6 = reinterpret_cast<sockaddr_in6*>(&storage);
               ::inet_pton(AF_INET6, host_.c_str(), &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        length = sizeof(sockaddr_in6);
    } else {
        throw ListenError("\"" + address + "\": " + host_ +
                          " is not an IP address (give 127.0.0.1, ::1 or this host's address)");
    }
    listen_fd_ = ::socket(storage.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (listen_fd_ < 0) throw ListenError(system_error("socket"));
    const int yes = 1;
    ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&storage), length) != 0 ||
        ::listen(listen_fd_, 16) != 0) {
        const std::string error = system_error("cannot listen on " + address);
        ::close(listen_fd_);
        throw ListenError(error);
    }
    sockaddr_storage bound{};
    socklen_t bound_length = sizeof bound;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&bound), &bound_length);
    port_ = ntohs(bound.ss_family == AF_INET ? reinterpret_cast<sockaddr_in*>(&bound)->sin_port
                                             : reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port);
    if (::pipe2(wake_, O_CLOEXEC) != 0) {
        const std::string error = system_error("pipe");
        ::close(listen_fd_);
        throw ListenError(error);
    }
    thread_ = std::thread([this] { serve(); });
}

MetricsListener::~MetricsListener() {
    const char stop = 1;
    [[maybe_unused]] const auto n = ::write(wake_[1], &stop, 1);
    thread_.join();
    ::close(listen_fd_);
    ::close(wake_[0]);
    ::close(wake_[1]);
}

std::string MetricsListener::address() const {
    return Endpoint{host_, port_}.text();
}

uint64_t MetricsListener::scrapes() const {
    std::lock_guard lock(mutex_);
    return scrapes_;
}

bool MetricsListener::await_scrape(uint64_t after, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return scraped_.wait_for(lock, timeout, [&] { return scrapes_ > after; });
}

void MetricsListener::serve() {
    for (;;) {
        pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            return;
        }
        if (fds[1].revents) return;
        if (!(fds[0].revents & POLLIN)) continue;
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) continue;
        answer(fd);
        ::close(fd);
    }
}

void MetricsListener::answer(int fd) {
    const auto deadline = Clock::now() + kExchangeLimit;
    std::string request;
    char buf[2048];
    while (request.find("\r\n\r\n") == std::string::npos && request.size() < kMaxRequest) {
        if (!wait_for(fd, POLLIN, deadline)) return;
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) {
            if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            return;
        }
        request.append(buf, size_t(n));
    }
    const size_t line_end = request.find("\r\n");
    const std::string line = request.substr(0, line_end);
    const bool metrics = line.starts_with("GET /metrics ") || line.starts_with("GET /metrics?");
    if (!metrics) {
        send_all(fd,
                 response("404 Not Found", "text/plain; charset=utf-8",
                          "PerfLab serves its run's figures at /metrics\n"),
                 deadline);
        return;
    }
    if (!send_all(fd, response("200 OK", "text/plain; version=0.0.4; charset=utf-8", body_()),
                  deadline))
        return;
    {
        std::lock_guard lock(mutex_);
        ++scrapes_;
    }
    scraped_.notify_all();
}

}  // namespace perflab
