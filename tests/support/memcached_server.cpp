// SPDX-License-Identifier: MIT
#include "memcached_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace perflab::test {

MemcachedServer::MemcachedServer(int memory_mb, std::vector<std::string> extra_args)
    : memory_mb_(memory_mb), extra_args_(std::move(extra_args)), port_(free_port()) {
    start();
}

MemcachedServer::~MemcachedServer() {
    stop();
}

void MemcachedServer::start() {
    std::vector<std::string> argv = {"memcached",
                                     "-l",
                                     "127.0.0.1",
                                     "-p",
                                     std::to_string(port_),
                                     "-U",
                                     "0",
                                     "-m",
                                     std::to_string(memory_mb_),
                                     "-t",
                                     "1"};
    if (geteuid() == 0) argv.insert(argv.end(), {"-u", "root"});
    argv.insert(argv.end(), extra_args_.begin(), extra_args_.end());
    process_ = Process(argv);
    if (!wait_for_port(port_, 10000))
        throw std::runtime_error("memcached did not start on port " + std::to_string(port_));
}

void MemcachedServer::stop() {
    process_.stop();
}

std::string MemcachedServer::ask(const std::string& command) const {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port_);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        close(fd);
        throw std::runtime_error("cannot connect to memcached for " + command);
    }
    const std::string line = command + "\r\n";
    if (::write(fd, line.data(), line.size()) != ssize_t(line.size())) {
        close(fd);
        throw std::runtime_error("cannot send " + command);
    }
    std::string reply;
    char buf[4096];
    const auto refused = [&] {
        return reply.ends_with("\r\n") &&
               (reply.starts_with("BUSY") || reply.find("ERROR") < reply.find("\r\n"));
    };
    while (!reply.ends_with("END\r\n") && !refused()) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n <= 0) break;
        reply.append(buf, size_t(n));
    }
    close(fd);
    return reply;
}

std::map<std::string, std::string> MemcachedServer::stats() const {
    std::map<std::string, std::string> out;
    std::istringstream lines(ask("stats"));
    std::string stat, name, value;
    while (lines >> stat && stat == "STAT" && lines >> name >> value)
        out[name] = value;
    return out;
}

std::set<std::string> MemcachedServer::keys() const {
    // The crawler answers BUSY while a crawl of its own runs: ask again until it lists.
    std::string reply;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!(reply = ask("lru_crawler metadump all")).ends_with("END\r\n")) {
        if (!reply.starts_with("BUSY") || std::chrono::steady_clock::now() > deadline)
            throw std::runtime_error("lru_crawler metadump refused: " + reply);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    // Lines read "key=<url-encoded key> exp=... la=... cas=... fetch=... cls=... size=...".
    std::set<std::string> out;
    std::istringstream lines(reply);
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("key=")) out.insert(line.substr(4, line.find(' ') - 4));
    return out;
}

uint64_t MemcachedServer::stat(const std::string& name) const {
    const auto all = stats();
    const auto it = all.find(name);
    if (it == all.end()) throw std::runtime_error("no stat " + name);
    return std::stoull(it->second);
}

CacheCounters cache_counters(const MemcachedServer& server) {
    const auto s = server.stats();
    const auto get = [&](const char* k) { return std::stoull(s.at(k)); };
    return {get("cmd_get"), get("cmd_set"), get("get_hits"), get("get_misses")};
}

void MemcachedServer::pause() {
    process_.signal(SIGSTOP);
}

void MemcachedServer::resume() {
    process_.signal(SIGCONT);
}

}  // namespace perflab::test
