// SPDX-License-Identifier: MIT
#include "ssh_session.h"

#include <libssh/libssh.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "ssh_watchdog.h"
#include "tcp_connect.h"

namespace perflab {

namespace {

std::string expand_home(const std::string& path) {
    const char* home = std::getenv("HOME");
    if (path.starts_with("~/") && home) return std::string(home) + path.substr(1);
    return path;
}

std::string fingerprint_of(ssh_session session) {
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(session, &key) != SSH_OK) return {};
    unsigned char* hash = nullptr;
    size_t len = 0;
    std::string out;
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &len) == 0) {
        char* text = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, len);
        if (text) out = text;
        ssh_string_free_char(text);
        ssh_clean_pubkey_hash(&hash);
    }
    ssh_key_free(key);
    return out;
}

}  // namespace

std::string SshTarget::text() const {
    const bool v6 = host.find(':') != std::string::npos;
    return user + "@" + (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::optional<SshTarget> parse_ssh_target(std::string_view text) {
    const size_t at = text.find('@');
    if (at == std::string_view::npos || at == 0) return std::nullopt;
    SshTarget t;
    t.user = std::string(text.substr(0, at));
    std::string_view rest = text.substr(at + 1);
    std::string_view port;
    if (rest.starts_with("[")) {
        const size_t close = rest.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        t.host = std::string(rest.substr(1, close - 1));
        rest.remove_prefix(close + 1);
        if (!rest.empty() && !rest.starts_with(":")) return std::nullopt;
        if (!rest.empty()) port = rest.substr(1);
    } else {
        const size_t colon = rest.find(':');
        t.host = std::string(rest.substr(0, colon));
        if (colon != std::string_view::npos) port = rest.substr(colon + 1);
    }
    if (t.host.empty() || t.host.find_first_of(" /@") != std::string::npos) return std::nullopt;
    if (!port.empty() || rest.ends_with(":")) {
        if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != port.npos)
            return std::nullopt;
        t.port = std::stoi(std::string(port));
        if (t.port < 1 || t.port > 65535) return std::nullopt;
    }
    return t;
}

std::string default_known_hosts_path() {
    const char* xdg = std::getenv("XDG_DATA_HOME");
    const char* home = std::getenv("HOME");
    std::string base = xdg && *xdg ? xdg : std::string(home ? home : ".") + "/.local/share";
    return base + "/perflab/known_hosts";
}

std::string shell_quote(std::string_view word) {
    std::string out = "'";
    for (char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

SshChannel::~SshChannel() {
    if (!channel_) return;
    ssh_channel_send_eof(channel_);
    ssh_channel_close(channel_);
    ssh_channel_free(channel_);
}

void SshChannel::write(std::string_view data) {
    if (ssh_channel_write(channel_, data.data(), uint32_t(data.size())) != int(data.size()))
        throw session_.failure(SshError::Kind::channel, "write to the remote command failed");
}

bool SshChannel::read(std::string& out, int timeout_ms) {
    return read_stream(out, timeout_ms, false);
}

bool SshChannel::read_stderr(std::string& out, int timeout_ms) {
    return read_stream(out, timeout_ms, true);
}

bool SshChannel::read_stream(std::string& out, int timeout_ms, bool stderr_stream) {
    char buf[16384];
    const int n =
        ssh_channel_read_timeout(channel_, buf, sizeof buf, stderr_stream ? 1 : 0, timeout_ms);
    if (n == SSH_ERROR) throw session_.failure(SshError::Kind::channel, "connection lost");
    if (n > 0) out.append(buf, size_t(n));
    return n > 0 || !ssh_channel_is_eof(channel_);
}

void SshChannel::read_until(std::string& buffer, std::string_view marker, int timeout_ms) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
    while (buffer.find(marker) == std::string::npos) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0)
            throw SshError(SshError::Kind::channel, "ssh: no answer from the remote command");
        if (!read(buffer, int(left)))
            throw SshError(SshError::Kind::channel, "ssh: the remote command ended");
    }
}

SshSession::SshSession(SshTarget target, SshOptions options)
    : target_(std::move(target)), options_(std::move(options)) {
    if (options_.known_hosts.empty()) options_.known_hosts = default_known_hosts_path();
    options_.key_file = expand_home(options_.key_file);
}

SshSession::~SshSession() {
    if (session_) {
        // libssh leaves a socket given through SSH_OPTIONS_FD open when it disconnects, unless
        // an error already made it close that socket.
        const socket_t given = ssh_get_fd(session_);
        ssh_disconnect(session_);
        if (given != SSH_INVALID_SOCKET) ::close(given);
        ssh_free(session_);
    }
    if (fd_ < 0) return;
    if (options_.cancel) options_.cancel->remove(fd_);
    ::close(fd_);
}

std::string SshSession::fail_text(const std::string& step) const {
    return "ssh " + target_.text() + ": " + step + ": " + ssh_get_error(session_);
}

SshError SshSession::failure(SshError::Kind kind, const std::string& step) const {
    const std::string where = "ssh " + target_.text() + ": " + step + ": ";
    if (cancelled()) return SshError(SshError::Kind::cancelled, where + "cancelled");
    if (expired_.load())
        return SshError(kind, where + "not done within the " + std::to_string(options_.deadline_s) +
                                  " s deadline");
    return SshError(kind, fail_text(step));
}

SshSession::Clock::time_point SshSession::deadline() const {
    return Clock::now() + std::chrono::seconds(options_.deadline_s);
}

void SshSession::open_socket(Clock::time_point until) {
    std::string error;
    fd_ = tcp_connect(
        target_.host, target_.port, until, [this] { return cancelled(); }, error);
    if (fd_ < 0) {
        expired_.store(Clock::now() >= until);
        if (cancelled() || expired_.load())
            throw failure(SshError::Kind::connect, "cannot connect");
        throw SshError(SshError::Kind::connect,
                       "ssh " + target_.text() + ": cannot connect: " + error);
    }
    if (options_.cancel) options_.cancel->add(fd_);
}

void SshSession::handshake() {
    session_ = ssh_new();
    if (!session_) throw SshError(SshError::Kind::connect, "ssh: out of memory");
    const long timeout = options_.timeout_s;
    const int port = target_.port;
    const bool no_config = false;
    ssh_options_set(session_, SSH_OPTIONS_HOST, target_.host.c_str());
    ssh_options_set(session_, SSH_OPTIONS_PORT, &port);
    ssh_options_set(session_, SSH_OPTIONS_USER, target_.user.c_str());
    ssh_options_set(session_, SSH_OPTIONS_TIMEOUT, &timeout);
    // Only PerfLab's own file decides which hosts are trusted, and no ssh_config changes
    // where we connect.
    ssh_options_set(session_, SSH_OPTIONS_PROCESS_CONFIG, &no_config);
    ssh_options_set(session_, SSH_OPTIONS_KNOWNHOSTS, options_.known_hosts.c_str());
    ssh_options_set(session_, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, options_.known_hosts.c_str());
    const socket_t given = ::dup(fd_);
    if (given < 0 || ssh_options_set(session_, SSH_OPTIONS_FD, &given) != SSH_OK) {
        if (given >= 0) ::close(given);
        throw SshError(SshError::Kind::connect, "ssh " + target_.text() + ": out of descriptors");
    }
    if (ssh_connect(session_) != SSH_OK) throw failure(SshError::Kind::connect, "cannot connect");
}

void SshSession::verify_host_key() {
    const std::string fingerprint = fingerprint_of(session_);
    switch (ssh_session_is_known_server(session_)) {
        case SSH_KNOWN_HOSTS_OK:
            return;
        case SSH_KNOWN_HOSTS_CHANGED:
        case SSH_KNOWN_HOSTS_OTHER:
            throw SshError(SshError::Kind::changed_host,
                           "ssh " + target_.text() + ": HOST KEY CHANGED (now " + fingerprint +
                               "), refusing to connect: the host was reinstalled, or someone "
                               "is in the middle. If the change is expected, remove its line "
                               "from " +
                               options_.known_hosts,
                           fingerprint);
        case SSH_KNOWN_HOSTS_UNKNOWN:
        case SSH_KNOWN_HOSTS_NOT_FOUND:
            throw SshError(SshError::Kind::unknown_host,
                           "ssh " + target_.text() + ": unknown host key " + fingerprint +
                               "; check it and trust it with: perflab hosts trust " +
                               target_.text(),
                           fingerprint);
        default:
            throw SshError(SshError::Kind::connect,
                           fail_text("cannot read known hosts " + options_.known_hosts));
    }
}

void SshSession::authenticate() {
    int rc = SSH_AUTH_DENIED;
    if (options_.key_file.empty()) {
        if (!std::getenv("SSH_AUTH_SOCK"))
            throw SshError(SshError::Kind::auth, "ssh " + target_.text() +
                                                     ": no key file given and no ssh-agent "
                                                     "(SSH_AUTH_SOCK is not set)");
        rc = ssh_userauth_agent(session_, nullptr);
    } else {
        ssh_key key = nullptr;
        const char* pass = options_.passphrase.empty() ? nullptr : options_.passphrase.c_str();
        if (ssh_pki_import_privkey_file(options_.key_file.c_str(), pass, nullptr, nullptr, &key) !=
            SSH_OK)
            throw SshError(SshError::Kind::key,
                           "ssh " + target_.text() + ": cannot read key " + options_.key_file +
                               " (missing, not a private key, or needs a passphrase)");
        rc = ssh_userauth_publickey(session_, nullptr, key);
        ssh_key_free(key);
    }
    if (rc == SSH_AUTH_ERROR) throw failure(SshError::Kind::auth, "cannot authenticate");
    if (rc != SSH_AUTH_SUCCESS)
        throw SshError(SshError::Kind::auth,
                       "ssh " + target_.text() + ": authentication refused for user " +
                           target_.user +
                           (options_.key_file.empty() ? " with the agent's keys"
                                                      : " with key " + options_.key_file));
}

void SshSession::connect() {
    const auto until = deadline();
    open_socket(until);
    const SshWatchdog watchdog(fd_, until, expired_);
    handshake();
    verify_host_key();
    authenticate();
}

namespace {

// A host too busy to answer within one wait (timeout_s) leaves libssh's request pending
// (SSH_AGAIN, no error set); called again, libssh waits on for the same answer. So the open
// and the exec wait up to the deadline, whose watchdog ends the wait by closing the socket.
template <typename Call>
int answered(Call call, const std::atomic<bool>& expired) {
    int rc = call();
    while (rc == SSH_AGAIN && !expired.load())
        rc = call();
    return rc;
}

}  // namespace

std::unique_ptr<SshChannel> SshSession::open_channel(const std::string& command) {
    ssh_channel channel = ssh_channel_new(session_);
    if (!channel) throw failure(SshError::Kind::channel, "cannot open a channel");
    if (answered([&] { return ssh_channel_open_session(channel); }, expired_) != SSH_OK ||
        answered([&] { return ssh_channel_request_exec(channel, command.c_str()); }, expired_) !=
            SSH_OK) {
        ssh_channel_free(channel);
        throw failure(SshError::Kind::channel, "cannot run a command");
    }
    return std::make_unique<SshChannel>(channel, *this);
}

std::unique_ptr<SshChannel> SshSession::exec(const std::string& command) {
    const SshWatchdog watchdog(fd_, deadline(), expired_);
    return open_channel(command);
}

std::unique_ptr<SshChannel> SshSession::forward(const std::string& host, int port) {
    const SshWatchdog watchdog(fd_, deadline(), expired_);
    ssh_channel channel = ssh_channel_new(session_);
    if (!channel) throw failure(SshError::Kind::channel, "cannot open a channel");
    if (answered(
            [&] { return ssh_channel_open_forward(channel, host.c_str(), port, "127.0.0.1", 0); },
            expired_) != SSH_OK) {
        ssh_channel_free(channel);
        throw failure(SshError::Kind::channel,
                      "cannot connect to " + host + ":" + std::to_string(port) + " from the host");
    }
    return std::make_unique<SshChannel>(channel, *this);
}

std::string SshSession::run(const std::string& command) {
    const SshWatchdog watchdog(fd_, deadline(), expired_);
    auto channel = open_channel(command);
    std::string out;
    while (channel->read(out, options_.timeout_s * 1000)) {
    }
    return out;
}

TrustResult SshSession::trust(TrustMode mode, const std::string& accepted) {
    TrustResult result;
    result.fingerprint = fingerprint_of(session_);
    if (mode == TrustMode::accepted && result.fingerprint != accepted)
        throw SshError(SshError::Kind::changed_host,
                       "ssh " + target_.text() + ": HOST KEY CHANGED: the host now shows key " +
                           result.fingerprint + ", not the key " + accepted +
                           " that was accepted; nothing was trusted. The host was reinstalled "
                           "in between, or someone is in the middle",
                       result.fingerprint);
    try {
        verify_host_key();
        result.already_known = true;
        return result;
    } catch (const SshError& e) {
        if (e.kind() != SshError::Kind::unknown_host) throw;
    }
    if (mode == TrustMode::look) return result;
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(options_.known_hosts).parent_path(),
                                        ec);
    // Writes the key of this session, the one whose fingerprint was compared above.
    if (ssh_session_update_known_hosts(session_) != SSH_OK)
        throw SshError(SshError::Kind::connect,
                       fail_text("cannot write known hosts " + options_.known_hosts));
    result.recorded = true;
    return result;
}

TrustResult trust_host(const SshTarget& target, const SshOptions& options, TrustMode mode,
                       const std::string& accepted) {
    SshSession session(target, options);
    const auto until = session.deadline();
    session.open_socket(until);
    const SshWatchdog watchdog(session.fd_, until, session.expired_);
    session.handshake();
    return session.trust(mode, accepted);
}

}  // namespace perflab
