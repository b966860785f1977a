// SPDX-License-Identifier: MIT
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "process.h"

namespace perflab::test {

class NetNamespace;

// A real OpenSSH server on a free loopback port (as root), with its own host key, a client
// key it accepts, and a known_hosts file that trusts it — all in a temporary directory. Given
// a network namespace, it listens on the namespace's address instead: another host.
class SshdServer {
  public:
    explicit SshdServer(const NetNamespace* host = nullptr);
    ~SshdServer();

    uint16_t port() const { return port_; }
    const std::string& address() const { return address_; }
    std::string target() const { return "root@" + address_ + ":" + std::to_string(port_); }
    std::string client_key() const { return dir_.file("client_key"); }
    std::string known_hosts() const { return dir_.file("known_hosts"); }  // trusts this server
    std::string host_fingerprint() const;                                 // SHA256:...
    const TempDir& dir() const { return dir_; }
    pid_t pid() const { return process_.pid(); }  // the listener's

    // Kills the listener and every session it forked: connections drop as if the host went.
    void stop();
    // Kills sshd alone (the listener and its per-connection processes), not the commands it
    // ran: they are left to notice their channel closed, as after a crash of the server.
    void kill_sshd();
    void start();  // again, same port and keys
    // Restarts the server with a fresh host key (host_key.pub and host_fingerprint() follow it;
    // known_hosts() still names the old one): a reinstalled host, or someone in the middle.
    void replace_host_key();

    // A fresh key pair that the server does not accept (private key path).
    std::string make_unaccepted_key(const std::string& name);
    // A known_hosts file naming this host and port with some other key.
    std::string make_wrong_known_hosts(const std::string& name);

  private:
    TempDir dir_;
    const NetNamespace* host_;
    std::string address_;
    uint16_t port_;
    Process process_;
};

// Every process whose parent chain leads to `pid` (from /proc).
std::vector<pid_t> descendants(pid_t pid);
// Whether a process exists.
bool process_alive(pid_t pid);

}  // namespace perflab::test
