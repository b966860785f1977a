// SPDX-License-Identifier: MIT
// The scrape endpoint over real loopback sockets: it answers GET /metrics, and a client that
// trickles its request one byte at a time cannot keep it from answering a scraper behind it.
#include "metrics/metrics_listener.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

namespace perflab {
namespace {

int connect_to(uint16_t port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    return fd;
}

// Sends `request` and reads until the listener closes (it answers with Connection: close),
// giving up after `limit`.
std::string exchange(uint16_t port, const std::string& request, std::chrono::seconds limit) {
    const int fd = connect_to(port);
    EXPECT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), ssize_t(request.size()));
    std::string reply;
    const auto deadline = std::chrono::steady_clock::now() + limit;
    char buf[4096];
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0) continue;
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        reply.append(buf, size_t(n));
    }
    ::close(fd);
    return reply;
}

uint16_t port_of(const MetricsListener& listener) {
    const std::string address = listener.address();
    return uint16_t(std::stoi(address.substr(address.rfind(':') + 1)));
}

TEST(MetricsListener, AnswersMetricsAndNothingElse) {
    MetricsListener listener("127.0.0.1:0", [] { return std::string("perflab_ops_total 7\n"); });
    const uint16_t port = port_of(listener);
    const std::string ok =
        exchange(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", std::chrono::seconds(30));
    EXPECT_TRUE(ok.starts_with("HTTP/1.1 200 OK\r\n")) << ok;
    EXPECT_TRUE(ok.ends_with("\r\n\r\nperflab_ops_total 7\n")) << ok;
    EXPECT_EQ(listener.scrapes(), 1u);
    const std::string other =
        exchange(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", std::chrono::seconds(30));
    EXPECT_TRUE(other.starts_with("HTTP/1.1 404 Not Found\r\n")) << other;
    EXPECT_EQ(listener.scrapes(), 1u);
}

TEST(MetricsListener, ATricklingClientDoesNotHoldUpTheScraperBehindIt) {
    MetricsListener listener("127.0.0.1:0", [] { return std::string("perflab_ops_total 7\n"); });
    const uint16_t port = port_of(listener);
    // A client that never finishes its request: a byte at a time, each well within any
    // per-read wait, for as long as the scraper behind it has no answer.
    std::atomic<bool> answered{false};
    const int slow = connect_to(port);
    std::thread trickle([&] {
        while (!answered) {
            if (::send(slow, "G", 1, MSG_NOSIGNAL) != 1) break;
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    });
    const std::string reply =
        exchange(port, "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", std::chrono::seconds(60));
    answered = true;
    trickle.join();
    ::close(slow);
    EXPECT_TRUE(reply.starts_with("HTTP/1.1 200 OK\r\n")) << reply;
    EXPECT_EQ(listener.scrapes(), 1u);
}

}  // namespace
}  // namespace perflab
