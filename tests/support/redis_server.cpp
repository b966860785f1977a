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

namespace {

// "name:value" lines, as INFO and CLUSTER INFO print them; '#' lines are headings.
std::map<std::string, std::string> fields(const std::string& text) {
    std::map<std::string, std::string> out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto colon = line.find(':');
        if (line.empty() || line[0] == '#' || colon == std::string::npos) continue;
        out[line.substr(0, colon)] = line.substr(colon + 1);
    }
    return out;
}

}  // namespace

std::map<std::string, std::string> RedisServer::info(const std::string& section) const {
    return fields(cli({"INFO", section}));
}

uint64_t RedisServer::info_number(const std::string& section, const std::string& name) const {
    const auto all = info(section);
    const auto it = all.find(name);
    if (it == all.end()) throw std::runtime_error("no " + name + " in INFO " + section);
    return std::stoull(it->second);
}

uint64_t RedisServer::calls(const std::string& command) const {
    return command_stat(*this, command, "calls");
}

uint64_t command_stat(const RedisServer& server, const std::string& command,
                      const std::string& field) {
    const auto all = server.info("commandstats");
    const auto it = all.find("cmdstat_" + command);
    if (it == all.end()) return 0;
    // "calls=3,usec=12,usec_per_call=4.00,rejected_calls=0,failed_calls=0"
    const std::string line = "," + it->second;
    const auto at = line.find("," + field + "=");
    return at == std::string::npos ? 0 : std::stoull(line.substr(at + field.size() + 2));
}

RedisCluster::RedisCluster(int masters,
                           const std::function<std::vector<std::string>(size_t)>& node_args) {
    std::vector<std::string> create = {"redis-cli", "--cluster", "create"};
    for (int i = 0; i < masters; ++i) {
        std::vector<std::string> args = {"--cluster-enabled",     "yes",
                                         "--cluster-config-file", "nodes.conf",
                                         "--cluster-port",        std::to_string(free_port())};
        if (node_args)
            for (auto& a : node_args(size_t(i)))
                args.push_back(std::move(a));
        nodes_.push_back(std::make_unique<RedisServer>(std::move(args)));
        create.push_back(nodes_.back()->endpoint());
    }
    create.insert(create.end(), {"--cluster-replicas", "0", "--cluster-yes"});
    const auto out = run(create, 60);
    if (out.code != 0)
        throw std::runtime_error("redis-cli --cluster create failed: " + out.err + out.out);
    if (!wait_until([&] { return ok(); }, std::chrono::seconds(30)))
        throw std::runtime_error("the Redis Cluster's state did not become ok");
}

std::string RedisCluster::node_id(size_t i) const {
    auto id = node(i).cli({"CLUSTER", "MYID"});
    while (!id.empty() && (id.back() == '\n' || id.back() == '\r'))
        id.pop_back();
    return id;
}

bool RedisCluster::ok() const {
    for (const auto& n : nodes_) {
        auto info = fields(n->cli({"CLUSTER", "INFO"}));
        if (info["cluster_state"] != "ok" ||
            info["cluster_known_nodes"] != std::to_string(nodes_.size()) ||
            info["cluster_slots_ok"] != "16384")
            return false;
    }
    return true;
}

void RedisCluster::reshard(size_t from, size_t to, int slots) const {
    const auto out = run({"redis-cli", "--cluster", "reshard", node(from).endpoint(),
                          "--cluster-from", node_id(from), "--cluster-to", node_id(to),
                          "--cluster-slots", std::to_string(slots), "--cluster-yes"},
                         120);
    if (out.code != 0)
        throw std::runtime_error("redis-cli --cluster reshard failed: " + out.err + out.out);
    if (!wait_until([&] { return ok(); }, std::chrono::seconds(30)))
        throw std::runtime_error("the Redis Cluster's state did not become ok after a reshard");
}

uint64_t RedisCluster::command_stat(const std::string& command, const std::string& field) const {
    uint64_t sum = 0;
    for (const auto& n : nodes_)
        sum += perflab::test::command_stat(*n, command, field);
    return sum;
}

uint64_t RedisCluster::info_sum(const std::string& section, const std::string& name) const {
    uint64_t sum = 0;
    for (const auto& n : nodes_)
        sum += n->info_number(section, name);
    return sum;
}

}  // namespace perflab::test
