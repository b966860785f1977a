// SPDX-License-Identifier: MIT
#include "sshd_server.h"

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <thread>

#include "net_namespace.h"

namespace perflab::test {

namespace {

void keygen(const std::string& path) {
    const auto o = run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", path});
    if (o.code != 0) throw std::runtime_error("ssh-keygen failed: " + o.err);
}

std::string public_key(const std::string& private_key) {
    std::string text = read_file(private_key + ".pub");
    const size_t second_space = text.find(' ', text.find(' ') + 1);
    return text.substr(0, second_space);
}

pid_t parent_of(const std::string& stat) {
    const size_t paren = stat.rfind(')');
    if (paren == std::string::npos || paren + 4 >= stat.size()) return 0;
    return pid_t(std::atoi(stat.c_str() + paren + 4));  // ") S PPID"
}

}  // namespace

std::vector<pid_t> descendants(pid_t root) {
    std::map<pid_t, pid_t> parent;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        parent[pid_t(std::stoi(name))] = parent_of(read_file(entry.path().string() + "/stat"));
    }
    std::vector<pid_t> out;
    for (const auto& [pid, ppid] : parent) {
        for (pid_t p = ppid; p > 1; p = parent.count(p) ? parent[p] : 0)
            if (p == root) {
                out.push_back(pid);
                break;
            }
    }
    return out;
}

bool process_alive(pid_t pid) {
    if (::kill(pid, 0) != 0) return false;
    // A zombie is gone for our purposes.
    const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
    const size_t paren = stat.rfind(')');
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
}

SshdServer::SshdServer(const NetNamespace* host)
    : host_(host), address_(host ? host->address() : "127.0.0.1"), port_(free_port()) {
    keygen(dir_.file("host_key"));
    keygen(dir_.file("client_key"));
    dir_.write("authorized_keys", read_file(client_key() + ".pub"));
    std::filesystem::permissions(
        dir_.file("authorized_keys"),
        std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    dir_.write("known_hosts", "[" + address_ + "]:" + std::to_string(port_) + " " +
                                  public_key(dir_.file("host_key")) + "\n");
    dir_.write("sshd_config", "Port " + std::to_string(port_) + "\nListenAddress " + address_ +
                                  "\nHostKey " + dir_.file("host_key") + "\nPidFile " +
                                  dir_.file("sshd.pid") + "\nAuthorizedKeysFile " +
                                  dir_.file("authorized_keys") +
                                  "\nPubkeyAuthentication yes\nPasswordAuthentication no\n"
                                  "KbdInteractiveAuthentication no\nPermitRootLogin "
                                  "prohibit-password\nUsePAM no\nStrictModes no\nSetEnv HOME=" +
                                  dir_.file("home") + "\n");
    // The sessions' shell reads $HOME/.bashrc even for a command. The test machine's own rc
    // files are not the tests' business: one (pyenv's rehash) waited forever on a lock that a
    // session killed by a test had left, hanging every later SSH command of the suite.
    std::filesystem::create_directories(dir_.file("home"));
    std::filesystem::create_directories("/run/sshd");
    start();
}

SshdServer::~SshdServer() {
    stop();
}

void SshdServer::start() {
    std::vector<std::string> argv{"/usr/sbin/sshd",         "-D", "-f",
                                  dir_.file("sshd_config"), "-E", dir_.file("sshd.log")};
    process_ = Process(host_ ? host_->command(argv) : argv);
    if (!wait_for_port(address_, port_, 5000))
        throw std::runtime_error("sshd did not start: " + read_file(dir_.file("sshd.log")));
}

void SshdServer::stop() {
    if (!process_.running()) return;
    const pid_t listener = process_.pid();
    for (pid_t child : descendants(listener))
        ::kill(child, SIGKILL);
    process_.stop();
}

void SshdServer::kill_sshd() {
    if (!process_.running()) return;
    for (pid_t child : descendants(process_.pid()))
        if (read_file("/proc/" + std::to_string(child) + "/comm").rfind("sshd", 0) == 0)
            ::kill(child, SIGKILL);
    process_.stop();
}

void SshdServer::replace_host_key() {
    stop();
    std::filesystem::remove(dir_.file("host_key"));
    std::filesystem::remove(dir_.file("host_key.pub"));
    keygen(dir_.file("host_key"));
    start();
}

std::string SshdServer::host_fingerprint() const {
    const auto o = run({"ssh-keygen", "-l", "-E", "sha256", "-f", dir_.file("host_key.pub")});
    const size_t start = o.out.find("SHA256:");
    return start == std::string::npos ? "" : o.out.substr(start, o.out.find(' ', start) - start);
}

std::string SshdServer::make_unaccepted_key(const std::string& name) {
    keygen(dir_.file(name));
    return dir_.file(name);
}

std::string SshdServer::make_wrong_known_hosts(const std::string& name) {
    keygen(dir_.file(name + "_key"));
    dir_.write(name, "[" + address_ + "]:" + std::to_string(port_) + " " +
                         public_key(dir_.file(name + "_key")) + "\n");
    return dir_.file(name);
}

}  // namespace perflab::test
