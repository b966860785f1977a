// SPDX-License-Identifier: MIT
#include "redis_server.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace perflab::test {

RedisServer::RedisServer(std::vector<std::string> extra_args)
    : extra_args_(std::move(extra_args)), port_(free_port()) {
    const auto pass = std::find(extra_args_.begin(), extra_args_.end(), "--requirepass");
    if (pass != extra_args_.end() && pass + 1 != extra_args_.end()) password_ = *(pass + 1);
    start();
}

RedisServer::~RedisServer() {
    stop();
}

void RedisServer::start() {
    std::vector<std::string> argv = {"redis-server",
                                     "--port",
                                     std::to_string(port_),
                                     "--bind",
                                     "127.0.0.1",
                                     "--save",
                                     "",
                                     "--appendonly",
                                     "no",
                                     "--dir",
                                     dir_.path(),
                                     "--daemonize",
                                     "no",
                                     "--logfile",
                                     dir_.file("redis.log")};
    argv.insert(argv.end(), extra_args_.begin(), extra_args_.end());
    process_ = Process(argv);
    if (!wait_for_port(port_, 10000))
        throw std::runtime_error("redis-server did not start on port " + std::to_string(port_) +
                                 ": " + read_file(dir_.file("redis.log")));
}

void RedisServer::stop() {
    process_.stop();
}

std::string RedisServer::cli(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {"redis-cli", "-h", "127.0.0.1", "-p", std::to_string(port_)};
    if (!password_.empty()) argv.insert(argv.end(), {"--no-auth-warning", "-a", password_});
    argv.insert(argv.end(), args.begin(), args.end());
    const auto out = run(argv, 60);
    if (out.code != 0) throw std::runtime_error("redis-cli failed: " + out.err + out.out);
    return out.out;
}

std::map<std::string, std::string> RedisServer::info(const std::string& section) const {
    std::map<std::string, std::string> out;
    std::istringstream lines(cli({"INFO", section}));
    for (std::string line; std::getline(lines, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto colon = line.find(':');
        if (line.empty() || line[0] == '#' || colon == std::string::npos) continue;
        out[line.substr(0, colon)] = line.substr(colon + 1);
    }
    return out;
}

uint64_t RedisServer::info_number(const std::string& section, const std::string& name) const {
    const auto all = info(section);
    const auto it = all.find(name);
    if (it == all.end()) throw std::runtime_error("no " + name + " in INFO " + section);
    return std::stoull(it->second);
}

uint64_t RedisServer::calls(const std::string& command) const {
    const auto all = info("commandstats");
    const auto it = all.find("cmdstat_" + command);
    if (it == all.end()) return 0;
    // "calls=3,usec=12,usec_per_call=4.00,rejected_calls=0,failed_calls=0"
    const auto at = it->second.find("calls=");
    return at == std::string::npos ? 0 : std::stoull(it->second.substr(at + 6));
}

}  // namespace perflab::test
