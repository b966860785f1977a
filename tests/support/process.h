// SPDX-License-Identifier: MIT
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace perflab::test {

// A child process started by a test; killed (SIGTERM, then waited for) when destroyed.
class Process {
  public:
    Process() = default;
    // stdout/stderr go to the given files when non-empty.
    explicit Process(std::vector<std::string> argv, const std::string& stdout_path = "",
                     const std::string& stderr_path = "");
    ~Process();
    Process(Process&& other) noexcept;
    Process& operator=(Process&& other) noexcept;

    pid_t pid() const { return pid_; }
    bool running();
    void signal(int sig);
    // Waits for exit; returns the exit code, or 128 + signal.
    int wait();
    void stop();  // SIGTERM and wait, if still running

  private:
    pid_t pid_ = -1;
    int status_ = -1;
};

// Runs a command to its end; returns its exit code and what it printed.
struct Output {
    int code = -1;
    std::string out;
    std::string err;
};
Output run(const std::vector<std::string>& argv, int timeout_s = 120);

uint16_t free_port();
bool wait_for_port(uint16_t port, int timeout_ms = 5000);
// The same for an IPv4 address of this host or of a network namespace it reaches.
bool wait_for_port(const std::string& address, uint16_t port, int timeout_ms = 5000);

// Polls `condition` every millisecond until it holds or `timeout` passes; returns whether it
// held. For waiting on what a test can observe (a server's count, a printed line), never on
// how long something should take.
template <class Condition>
bool wait_until(Condition condition, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
}

// A fresh directory under /tmp, removed with its contents when destroyed.
// Sets an environment variable for the processes the test starts, and only for the guard's life.
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const std::string& value) : name_(name) {
        setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() { unsetenv(name_); }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

  private:
    const char* name_;
};

class TempDir {
  public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }
    void write(const std::string& name, const std::string& text) const;

  private:
    std::string path_;
};

std::string read_file(const std::string& path);

}  // namespace perflab::test
