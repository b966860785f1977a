// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "host_error.h"
#include "ssh_cancel.h"

struct ssh_session_struct;
struct ssh_channel_struct;

namespace perflab {

class SshSession;

struct SshTarget {
    std::string user;
    std::string host;
    int port = 22;
    std::string text() const;  // user@host:port
};

// "user@host", "user@host:port", "user@[::1]:port"; nullopt when malformed.
std::optional<SshTarget> parse_ssh_target(std::string_view text);

struct SshOptions {
    std::string key_file;     // private key; empty: ssh-agent
    std::string passphrase;   // for key_file; held in memory only, never written
    std::string known_hosts;  // PerfLab's own file; empty: default_known_hosts_path()
    int timeout_s = 5;        // each wait for the host: a read, a reply
    // Connecting (TCP, key exchange, authentication), opening a command and run() as a whole:
    // a host that answers slowly, or a command that never ends, fails here.
    int deadline_s = 30;
    // Shared by the sessions another thread may have to end early (Stop); may be null.
    std::shared_ptr<SshCancel> cancel;
};

// $XDG_DATA_HOME/perflab/known_hosts, else ~/.local/share/perflab/known_hosts.
std::string default_known_hosts_path();

// Each failure its own kind, so callers can act: offer to trust an unknown key, refuse a
// changed one, ask for another key.
class SshError : public HostError {
  public:
    // key: the key file cannot be read (missing, or needs a passphrase); auth: refused;
    // cancelled: SshOptions::cancel ended it.
    enum class Kind { connect, unknown_host, changed_host, key, auth, channel, cancelled };
    SshError(Kind kind, const std::string& message, std::string fingerprint = {})
        : HostError(message), kind_(kind), fingerprint_(std::move(fingerprint)) {}
    Kind kind() const { return kind_; }
    const std::string& fingerprint() const { return fingerprint_; }  // "SHA256:..."

  private:
    Kind kind_;
    std::string fingerprint_;
};

// One command running on the host, its stdout read as it comes.
class SshChannel {
  public:
    SshChannel(ssh_channel_struct* channel, const SshSession& session)
        : channel_(channel), session_(session) {}
    ~SshChannel();
    SshChannel(const SshChannel&) = delete;
    SshChannel& operator=(const SshChannel&) = delete;

    void write(std::string_view data);  // to the command's stdin; throws SshError
    // Appends what arrives within timeout_ms (at least one byte unless it timed out or the
    // command ended); false once the output has ended. Throws SshError on a broken session.
    bool read(std::string& out, int timeout_ms);
    // The same for the command's stderr.
    bool read_stderr(std::string& out, int timeout_ms);
    // Reads until `marker` is in `buffer` or the deadline passes; throws SshError otherwise.
    void read_until(std::string& buffer, std::string_view marker, int timeout_ms);

  private:
    bool read_stream(std::string& out, int timeout_ms, bool stderr_stream);
    ssh_channel_struct* channel_;
    const SshSession& session_;
};

struct TrustResult {
    std::string fingerprint;
    bool already_known = false;
    bool recorded = false;  // written to the known_hosts file just now
};

// Which key trust_host records when the known_hosts file does not hold the host's key yet.
enum class TrustMode {
    look,      // none: only read the key's fingerprint
    accepted,  // the key whose fingerprint a person was shown and accepted, if the host shows it
    shown,     // the key this connection shows, unseen by anyone (`perflab hosts trust --yes`)
};

// One authenticated session to one host, used by one thread at a time.
class SshSession {
  public:
    SshSession(SshTarget target, SshOptions options);
    ~SshSession();
    SshSession(const SshSession&) = delete;
    SshSession& operator=(const SshSession&) = delete;

    // Connects, checks the host key against the known_hosts file, authenticates; within the
    // deadline, and cancellable.
    void connect();
    // Starts a command, its output read through the channel (each read with its own timeout).
    std::unique_ptr<SshChannel> exec(const std::string& command);
    // Runs a command to its end, within the deadline, and returns its stdout.
    std::string run(const std::string& command);
    // A TCP connection to host:port made by the host (`ssh -L`'s channel): a server bound to
    // the host's loopback, reached without a program of its own there.
    std::unique_ptr<SshChannel> forward(const std::string& host, int port);
    const SshTarget& target() const { return target_; }

  private:
    using Clock = std::chrono::steady_clock;
    friend class SshChannel;
    friend TrustResult trust_host(const SshTarget&, const SshOptions&, TrustMode,
                                  const std::string&);
    Clock::time_point deadline() const;
    void open_socket(Clock::time_point until);
    void handshake();
    void verify_host_key();
    TrustResult trust(TrustMode mode, const std::string& accepted);
    void authenticate();
    std::unique_ptr<SshChannel> open_channel(const std::string& command);
    bool cancelled() const { return options_.cancel && options_.cancel->cancelled(); }
    // The error of a step that failed: cancelled, or past its deadline, when that ended it.
    SshError failure(SshError::Kind kind, const std::string& step) const;
    std::string fail_text(const std::string& step) const;

    SshTarget target_;
    SshOptions options_;
    // Ours, for shutting the connection down from another thread; libssh is given a duplicate,
    // which it closes on some errors and leaves open on others.
    int fd_ = -1;
    std::atomic<bool> expired_{false};  // a step ran past its deadline: the socket is shut
    ssh_session_struct* session_ = nullptr;
};

// Connects without authenticating and returns the host key's fingerprint; records the key as
// `mode` says when the known_hosts file does not hold it yet. The fingerprint compared and the
// key written come from one and the same connection, so a key other than the one a person
// accepted is never written. Throws SshError: connect, or changed_host when the file holds
// another key for the host (never overwritten here) or when, with TrustMode::accepted, the
// host shows a key other than `accepted` ("SHA256:...") — nothing is written then.
TrustResult trust_host(const SshTarget& target, const SshOptions& options, TrustMode mode,
                       const std::string& accepted = {});

// Quotes a word for a POSIX shell.
std::string shell_quote(std::string_view word);

}  // namespace perflab
