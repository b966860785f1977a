// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <memory>

#include "host_values.h"
#include "probe.h"
#include "remote/hardware_profile.h"
#include "remote/ssh_session.h"

namespace perflab {

// A host over SSH, nothing installed on it: one session, and on it one long-lived command, a
// shell loop that prints the /proc files each time it reads a line from its stdin. Closing
// the channel closes that stdin, so the loop ends with the session. A lost connection gives
// gap readings and is retried with growing pauses; samples never bridge a gap.
class SshProbe : public Probe {
  public:
    SshProbe(SshTarget target, SshOptions options, bool per_core = false);
    ~SshProbe() override;
    std::string source() const override { return target_.text(); }
    std::string kind() const override { return "host"; }
    void open() override;  // throws SshError when the first connection fails
    ProbeReading poll() override;
    void close() override;

    // Read through the same session when open() connected.
    const HardwareProfile* hardware_profile() const override { return &profile_; }
    // The remote loop's shell, for checking that it is gone after close().
    int remote_pid() const { return remote_pid_; }

    // The command the remote loop runs, for the cost bench and the tests.
    static std::string loop_command();

  private:
    void connect();
    ProcSnapshot request_snapshot();
    void drop(ProbeReading& reading, const SshError& error);

    using Clock = std::chrono::steady_clock;
    SshTarget target_;
    SshOptions options_;
    bool per_core_;
    std::unique_ptr<SshSession> session_;
    std::unique_ptr<SshChannel> loop_;
    std::string buffer_;
    ProcSnapshot last_;
    HardwareProfile profile_;
    int remote_pid_ = 0;
    std::chrono::milliseconds backoff_{0};
    Clock::time_point next_attempt_{};
};

// Reads the hardware profile of a host through an open session.
HardwareProfile remote_hardware_profile(SshSession& session);

}  // namespace perflab
