// SPDX-License-Identifier: MIT
#include "command_stream.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace perflab {

void take_lines(std::string& partial, std::vector<std::string>& lines) {
    size_t start = 0;
    for (size_t nl; (nl = partial.find('\n', start)) != std::string::npos; start = nl + 1) {
        std::string line = partial.substr(start, nl - start);
        if (line.ends_with('\r')) line.pop_back();
        lines.push_back(std::move(line));
    }
    partial.erase(0, start);
}

LocalCommandStream::LocalCommandStream(const std::string& command) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) throw ProbeError(std::string("pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
    const int rc =
        posix_spawn(&pid_, "/bin/sh", &actions, &attr, const_cast<char**>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(fds[1]);
    fd_ = fds[0];
    if (rc != 0) {
        pid_ = -1;
        throw ProbeError(std::string("cannot start /bin/sh: ") + std::strerror(rc));
    }
}

LocalCommandStream::~LocalCommandStream() {
    if (pid_ > 0) {
        ::kill(-pid_, SIGTERM);
        ::waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) ::close(fd_);
}

bool LocalCommandStream::read_lines(std::vector<std::string>& lines, int timeout_ms) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return true;
    char buf[8192];
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n <= 0) return false;
    partial_.append(buf, size_t(n));
    take_lines(partial_, lines);
    return true;
}

SshCommandStream::SshCommandStream(std::unique_ptr<SshSession> session, const std::string& command)
    : session_(std::move(session)), channel_(session_->exec(command)) {}

bool SshCommandStream::read_lines(std::vector<std::string>& lines, int timeout_ms) {
    const bool open = channel_->read(partial_, timeout_ms);
    take_lines(partial_, lines);
    return open;
}

bool drain_lines(CommandStream& stream, std::vector<std::string>& lines) {
    bool open = true;
    try {
        for (size_t seen = 0; open && (seen == 0 || lines.size() > seen);) {
            seen = lines.size();
            open = stream.read_lines(lines, seen == 0 ? 100 : 0);
            if (seen == 0 && lines.empty()) break;
        }
    } catch (const ProbeError&) {
        open = false;
    }
    return open;
}

}  // namespace perflab
