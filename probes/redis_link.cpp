// SPDX-License-Identifier: MIT
#include "redis_link.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "remote/tcp_connect.h"

namespace perflab {

namespace {

class TcpLink : public RedisLink {
  public:
    explicit TcpLink(int fd) : fd_(fd) {}
    ~TcpLink() override { ::close(fd_); }
    TcpLink(const TcpLink&) = delete;
    TcpLink& operator=(const TcpLink&) = delete;

    void send(std::string_view data) override {
        while (!data.empty()) {
            pollfd p{fd_, POLLOUT, 0};
            const ssize_t n =
                ::poll(&p, 1, 2000) == 1 ? ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL) : -1;
            if (n <= 0) throw ProbeError("connection lost");
            data.remove_prefix(size_t(n));
        }
    }

    void receive(std::string& out, int timeout_ms) override {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, timeout_ms) != 1) throw ProbeError("no answer");
        char buf[16384];
        const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
        if (n == 0) throw ProbeError("connection closed");
        if (n < 0) throw ProbeError(std::string("connection lost: ") + std::strerror(errno));
        out.append(buf, size_t(n));
    }

  private:
    int fd_;
};

class SshLink : public RedisLink {
  public:
    explicit SshLink(std::unique_ptr<SshChannel> channel) : channel_(std::move(channel)) {}

    void send(std::string_view data) override { channel_->write(data); }

    void receive(std::string& out, int timeout_ms) override {
        const size_t had = out.size();
        if (!channel_->read(out, timeout_ms)) throw ProbeError("connection closed");
        if (out.size() == had) throw ProbeError("no answer");
    }

  private:
    std::unique_ptr<SshChannel> channel_;
};

}  // namespace

std::unique_ptr<RedisLink> tcp_redis_link(const std::string& host, int port, int timeout_ms) {
    std::string error;
    const int fd = tcp_connect(
        host, port, std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms),
        [] { return false; }, error);
    if (fd < 0) throw ProbeError("cannot connect: " + error);
    return std::make_unique<TcpLink>(fd);
}

std::unique_ptr<RedisLink> ssh_redis_link(SshSession& session, const std::string& host, int port) {
    return std::make_unique<SshLink>(session.forward(host, port));
}

}  // namespace perflab
