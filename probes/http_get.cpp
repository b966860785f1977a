// SPDX-License-Identifier: MIT
#include "http_get.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <charconv>
#include <cstring>
#include <stdexcept>

#include "remote/tcp_connect.h"

namespace perflab {

namespace {

using Clock = std::chrono::steady_clock;

class Fd {
  public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }

  private:
    int fd_;
};

int wait_ms(Clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    return left > 0 ? int(left) : 0;
}

}  // namespace

std::optional<HttpUrl> parse_http_url(std::string_view text) {
    constexpr std::string_view scheme = "http://";
    if (!text.starts_with(scheme)) return std::nullopt;
    text.remove_prefix(scheme.size());
    HttpUrl url;
    const size_t slash = text.find('/');
    std::string_view authority = text.substr(0, slash);
    if (slash != std::string_view::npos) url.path = std::string(text.substr(slash));
    std::string_view port;
    if (authority.starts_with("[")) {
        const size_t close = authority.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        url.host = std::string(authority.substr(1, close - 1));
        authority.remove_prefix(close + 1);
        if (!authority.empty()) {
            if (authority.front() != ':') return std::nullopt;
            port = authority.substr(1);
        }
    } else {
        const size_t colon = authority.find(':');
        url.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos) port = authority.substr(colon + 1);
    }
    if (url.host.empty()) return std::nullopt;
    if (!port.empty()) {
        const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), url.port);
        if (ec != std::errc{} || end != port.data() + port.size() || url.port < 1 ||
            url.port > 65535)
            return std::nullopt;
    }
    return url;
}

std::string http_get(const HttpUrl& url, std::chrono::milliseconds timeout, size_t max_bytes) {
    const auto deadline = Clock::now() + timeout;
    std::string error;
    const bool v6 = url.host.find(':') != std::string::npos;
    const std::string host = v6 ? "[" + url.host + "]" : url.host;
    const Fd fd(tcp_connect(
        url.host, url.port, deadline, [] { return false; }, error));
    if (fd.get() < 0) throw std::runtime_error("cannot connect: " + error);
    const std::string request =
        "GET " + url.path + " HTTP/1.0\r\nHost: " + host + ":" + std::to_string(url.port) +
        "\r\nAccept: text/plain;version=0.0.4,application/"
        "openmetrics-text;version=1.0.0;q=0.5\r\nUser-Agent: perflab\r\n\r\n";
    for (size_t sent = 0; sent < request.size();) {
        pollfd p{fd.get(), POLLOUT, 0};
        if (::poll(&p, 1, wait_ms(deadline)) != 1) throw std::runtime_error("timed out sending");
        const ssize_t n =
            ::send(fd.get(), request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno != EAGAIN)
            throw std::runtime_error(std::string("send: ") + std::strerror(errno));
        if (n > 0) sent += size_t(n);
    }
    std::string reply;
    char buf[16384];
    for (;;) {
        pollfd p{fd.get(), POLLIN, 0};
        if (::poll(&p, 1, wait_ms(deadline)) != 1) throw std::runtime_error("timed out reading");
        const ssize_t n = ::recv(fd.get(), buf, sizeof buf, 0);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR) continue;
            throw std::runtime_error(std::string("recv: ") + std::strerror(errno));
        }
        reply.append(buf, size_t(n));
        if (reply.size() > max_bytes)
            throw std::runtime_error("reply over " + std::to_string(max_bytes) + " bytes");
    }
    const size_t head_end = reply.find("\r\n\r\n");
    if (!reply.starts_with("HTTP/") || head_end == std::string::npos)
        throw std::runtime_error("no HTTP reply");
    const size_t line_end = reply.find("\r\n");
    const std::string status = reply.substr(0, line_end);
    const size_t space = status.find(' ');
    if (space == std::string::npos || status.compare(space + 1, 3, "200") != 0)
        throw std::runtime_error("answered \"" + status + "\"");
    return reply.substr(head_end + 4);
}

}  // namespace perflab
