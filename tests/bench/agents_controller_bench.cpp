// SPDX-License-Identifier: MIT
// What merging costs the controller: N agents (each a real sshd on loopback running this
// build's perflab agent) send an open-model cache run against one memcached, and the
// controller's own CPU (rusage of `perflab run`) is divided by the merged ticks. Two runs, a
// short and a long one, and the difference between them: connecting, the clock pings and
// the summary cost the same in both. Not a test: no assertion, not in ctest.
// Usage: agents_controller_bench [AGENTS] [SECONDS] [RATE]   (defaults: 8, 30, 4000)
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memcached_server.h"
#include "process.h"
#include "sshd_server.h"

extern char** environ;

using namespace perflab::test;
using nlohmann::json;

namespace {

struct Measured {
    double cpu_s = 0;
    int ticks = 0;
    json report;
};

// `perflab run` as a child of ours, so wait4 gives its CPU time alone.
Measured run_controller(const TempDir& dir, const json& spec) {
    dir.write("spec.json", spec.dump());
    const std::string env_data = "XDG_DATA_HOME=" + dir.file("data");
    std::vector<std::string> args{PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store",
                                  "--json"};
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<char*> env{const_cast<char*>(env_data.c_str())};
    for (char** e = environ; *e; ++e)
        env.push_back(*e);
    env.push_back(nullptr);
    posix_spawn_file_actions_t files;
    posix_spawn_file_actions_init(&files);
    posix_spawn_file_actions_addopen(&files, 1, dir.file("out").c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&files, 2, dir.file("err").c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &files, nullptr, argv.data(), env.data()) != 0) {
        std::perror("posix_spawn");
        std::exit(1);
    }
    posix_spawn_file_actions_destroy(&files);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        std::fprintf(stderr, "perflab run failed:\n%s\n", read_file(dir.file("err")).c_str());
        std::exit(1);
    }
    Measured m;
    m.cpu_s = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
              double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    m.report = json::parse(read_file(dir.file("out")));
    m.ticks = m.report["agents"].at(0)["ticks"].get<int>();
    return m;
}

json spec_for(const MemcachedServer& server, const json& agents, int seconds, int rate) {
    return {
        {"name", "controller bench"},
        {"kind", "cache"},
        {"tick_ms", 1000},
        {"phases", {{{"duration_s", seconds}, {"rate", rate}, {"concurrency", 2 * agents.size()}}}},
        {"cache", {{"servers", {server.endpoint()}}, {"workload", "ratio"}}},
        {"agents", agents}};
}

}  // namespace

int main(int argc, char** argv) {
    const int n = argc > 1 ? std::atoi(argv[1]) : 8;
    const int seconds = argc > 2 ? std::atoi(argv[2]) : 30;
    const int rate = argc > 3 ? std::atoi(argv[3]) : 4000;
    MemcachedServer server;
    std::vector<std::unique_ptr<SshdServer>> hosts;
    TempDir dir;
    std::filesystem::create_directories(dir.file("data/perflab"));
    std::string known;
    json agents = json::array();
    for (int i = 0; i < n; ++i) {
        hosts.push_back(std::make_unique<SshdServer>());
        known += read_file(hosts.back()->known_hosts());
        agents.push_back({{"host", hosts.back()->target()},
                          {"key", hosts.back()->client_key()},
                          {"perflab", PERFLAB_BINARY}});
    }
    dir.write("data/perflab/known_hosts", known);

    const int short_s = 5;
    const Measured a = run_controller(dir, spec_for(server, agents, short_s, rate));
    const Measured b = run_controller(dir, spec_for(server, agents, seconds, rate));
    const int ticks = b.ticks - a.ticks;
    uint64_t bytes = 0;
    for (const auto& agent : b.report["agents"])
        bytes += agent["bytes_per_tick"].get<uint64_t>();
    std::printf(
        "%d agents, %d/s in all, 1 s ticks: controller CPU %.3f s over %d ticks, %.3f s "
        "over %d\n",
        n, rate, b.cpu_s, b.ticks, a.cpu_s, a.ticks);
    std::printf("controller CPU per merged tick: %.2f ms (%d agents, %.2f ms per agent tick)\n",
                1e3 * (b.cpu_s - a.cpu_s) / ticks, n, 1e3 * (b.cpu_s - a.cpu_s) / ticks / n);
    std::printf("on the wire: %.0f B per tick per agent (mean of %d agents)\n", double(bytes) / n,
                n);
    return 0;
}
