// SPDX-License-Identifier: MIT
#include "local_memcached.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

extern char** environ;

namespace perflab {

namespace {

sockaddr_in loopback(uint16_t port) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return addr;
}

const char* find_memcached() {
    for (const char* path : {"/usr/bin/memcached", "/usr/local/bin/memcached"})
        if (access(path, X_OK) == 0) return path;
    return nullptr;
}

}  // namespace

uint16_t free_loopback_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) throw std::runtime_error("socket() failed");
    auto addr = loopback(0);
    socklen_t len = sizeof addr;
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
        close(fd);
        throw std::runtime_error("cannot find a free loopback port");
    }
    close(fd);
    return ntohs(addr.sin_port);
}

bool wait_for_port(uint16_t port, int timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (std::chrono::steady_clock::now() < deadline) {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        auto addr = loopback(port);
        const bool up = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
        close(fd);
        if (up) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

pid_t start_local_server(std::vector<std::string> args, uint16_t port, const std::string& name) {
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0)
        throw std::runtime_error("cannot start " + name);
    if (!wait_for_port(port, 5000)) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        throw std::runtime_error(name + " did not come up on port " + std::to_string(port));
    }
    return pid;
}

void stop_local_server(pid_t pid) {
    if (pid <= 0) return;
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
}

LocalMemcached::LocalMemcached(int memory_mb) {
    const char* binary = find_memcached();
    if (!binary) throw std::runtime_error("memcached is not installed (apt-get install memcached)");
    port_ = free_loopback_port();
    std::vector<std::string> args = {binary,
                                     "-l",
                                     "127.0.0.1",
                                     "-p",
                                     std::to_string(port_),
                                     "-U",
                                     "0",
                                     "-m",
                                     std::to_string(memory_mb),
                                     "-t",
                                     "1"};
    if (geteuid() == 0) args.insert(args.end(), {"-u", "root"});  // it refuses root otherwise
    pid_ = start_local_server(std::move(args), port_, "memcached");
}

LocalMemcached::~LocalMemcached() {
    stop_local_server(pid_);
}

}  // namespace perflab
