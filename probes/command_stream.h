// SPDX-License-Identifier: MIT
#pragma once

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "probe.h"
#include "remote/ssh_session.h"

namespace perflab {

// The output of a long-running shell command, line by line: run here, or on a host over SSH.
class CommandStream {
  public:
    virtual ~CommandStream() = default;
    // Appends the complete lines that arrive within timeout_ms; false once the output ended.
    virtual bool read_lines(std::vector<std::string>& lines, int timeout_ms) = 0;
};

// `sh -c COMMAND` here, in its own process group, which is killed when the stream goes.
class LocalCommandStream : public CommandStream {
  public:
    explicit LocalCommandStream(const std::string& command);
    ~LocalCommandStream() override;
    bool read_lines(std::vector<std::string>& lines, int timeout_ms) override;

  private:
    pid_t pid_ = -1;
    int fd_ = -1;
    std::string partial_;
};

// The command on a host, through an SSH session this stream owns.
class SshCommandStream : public CommandStream {
  public:
    SshCommandStream(std::unique_ptr<SshSession> session, const std::string& command);
    bool read_lines(std::vector<std::string>& lines, int timeout_ms) override;
    SshSession& session() { return *session_; }

  private:
    std::unique_ptr<SshSession> session_;
    std::unique_ptr<SshChannel> channel_;
    std::string partial_;
};

// What a tick's poll reads: the lines that arrived since the last one, waiting up to 100 ms for
// the first and then taking what follows it without waiting. False once the output ended or
// the stream failed (what was read before stays in `lines`).
bool drain_lines(CommandStream& stream, std::vector<std::string>& lines);

// Moves the complete lines of `partial` into `lines` (without their newline).
void take_lines(std::string& partial, std::vector<std::string>& lines);

}  // namespace perflab
