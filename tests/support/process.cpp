// SPDX-License-Identifier: MIT
#include "process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace perflab::test {

namespace {

sockaddr_in loopback(uint16_t port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

int decode_status(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

// The lowest port the kernel hands to client sockets (bind to port 0, connect).
unsigned ephemeral_low() {
    std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range");
    unsigned low = 32768;
    range >> low;
    return low;
}

bool bindable(uint16_t port) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    const auto a = loopback(port);
    const bool ok = bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
    close(fd);
    return ok;
}

}  // namespace

Process::Process(std::vector<std::string> argv, const std::string& stdout_path,
                 const std::string& stderr_path) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!stdout_path.empty())
        posix_spawn_file_actions_addopen(&actions, 1, stdout_path.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (!stderr_path.empty())
        posix_spawn_file_actions_addopen(&actions, 2, stderr_path.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char*> args;
    for (auto& a : argv)
        args.push_back(a.data());
    args.push_back(nullptr);
    const int rc = posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + argv[0]);
}

Process::~Process() {
    stop();
}

Process::Process(Process&& other) noexcept {
    *this = std::move(other);
}

Process& Process::operator=(Process&& other) noexcept {
    std::swap(pid_, other.pid_);
    std::swap(status_, other.status_);
    return *this;
}

bool Process::running() {
    if (pid_ <= 0 || status_ >= 0) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
        status_ = status;
        return false;
    }
    return true;
}

void Process::signal(int sig) {
    if (running()) kill(pid_, sig);
}

int Process::wait() {
    if (pid_ <= 0) return -1;
    if (status_ < 0) {
        int status = 0;
        waitpid(pid_, &status, 0);
        status_ = status;
    }
    return decode_status(status_);
}

void Process::stop() {
    if (!running()) return;
    kill(pid_, SIGTERM);
    wait();
}

Output run(const std::vector<std::string>& argv, int timeout_s) {
    TempDir dir;
    Process p(argv, dir.file("out"), dir.file("err"));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    while (p.running() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (p.running()) p.signal(SIGKILL);
    Output o;
    o.code = p.wait();
    o.out = read_file(dir.file("out"));
    o.err = read_file(dir.file("err"));
    return o;
}

// Test programs run side by side (ctest -j), so a port picked here must stay free until the
// test's server binds it. Below the ephemeral range no client socket of another test's load can
// take it meanwhile, and each program walks the range from a place of its own (by pid), so two
// programs do not pick the same port.
uint16_t free_port() {
    constexpr unsigned kLowest = 10000;
    static std::atomic<unsigned> next{0};
    const unsigned span = std::max(ephemeral_low(), kLowest + 1024) - kLowest;
    const unsigned start = unsigned(getpid()) * 64u;
    for (unsigned tried = 0; tried < span; ++tried) {
        const auto port = uint16_t(kLowest + (start + next++) % span);
        if (bindable(port)) return port;
    }
    throw std::runtime_error("no free port below the ephemeral range");
}

bool wait_for_port(uint16_t port, int timeout_ms) {
    return wait_for_port("127.0.0.1", port, timeout_ms);
}

bool wait_for_port(const std::string& address, uint16_t port, int timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (std::chrono::steady_clock::now() < deadline) {
        const int fd = socket(AF_INET, SOCK_STREAM, 0);
        auto a = loopback(port);
        inet_pton(AF_INET, address.c_str(), &a.sin_addr);
        const bool up = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        close(fd);
        if (up) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
}

TempDir::TempDir() {
    std::string tmpl = "/tmp/perflab-test-XXXXXX";
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
}

TempDir::~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

void TempDir::write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name), std::ios::binary) << text;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace perflab::test
