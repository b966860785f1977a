// SPDX-License-Identifier: MIT
// A controller for agent tests: this build's perflab run with its own known_hosts trusting
// the test's sshd hosts, and the checks every agent test ends with.
#pragma once

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "model/base64.h"
#include "model/histogram.h"
#include "process.h"
#include "sshd_server.h"

namespace perflab::test {

inline nlohmann::json agent(const SshdServer& host, const std::string& program = PERFLAB_BINARY) {
    return {{"host", host.target()}, {"key", host.client_key()}, {"perflab", program}};
}

// The controller's own known_hosts ($XDG_DATA_HOME/perflab/known_hosts) trusting `hosts`.
class Controller {
  public:
    explicit Controller(const std::vector<const SshdServer*>& hosts) {
        std::string known;
        for (const auto* h : hosts)
            known += read_file(h->known_hosts());
        std::filesystem::create_directories(dir_.file("data/perflab"));
        dir_.write("data/perflab/known_hosts", known);
    }
    // Run with `--no-store`, unless args name a database (`--db FILE`).
    std::vector<std::string> command(const nlohmann::json& spec,
                                     std::vector<std::string> args) const {
        dir_.write("spec.json", spec.dump());
        std::vector<std::string> argv{"env", "XDG_DATA_HOME=" + dir_.file("data"), PERFLAB_BINARY,
                                      "run", dir_.file("spec.json")};
        if (std::find(args.begin(), args.end(), "--db") == args.end()) argv.push_back("--no-store");
        argv.insert(argv.end(), args.begin(), args.end());
        return argv;
    }
    Output run(const nlohmann::json& spec, std::vector<std::string> args = {}) const {
        return perflab::test::run(command(spec, std::move(args)), 60);
    }
    const TempDir& dir() const { return dir_; }

  private:
    TempDir dir_;
};

// The agents' own latency histograms (`run --json`'s "agents"), merged here.
inline Histogram agents_latency_merged(const nlohmann::json& run) {
    Histogram merged;
    for (const auto& agent : run["agents"])
        for (const auto& [name, op] : agent["ops"].items())
            merged.merge(*Histogram::decode(*base64_decode(op["latency_hdr"].get<std::string>())));
    return merged;
}

// Each whole tick's get/s + set/s as the console printed them. The phase's whole ticks come
// before the agents' totals; a drain after them holds the replies that came after the
// phase's last tick.
inline std::vector<double> whole_tick_rates(const std::string& console) {
    const std::regex tick("^[0-9:]{8} hit:[0-9.]+% get/s:([0-9]+) .* set/s:([0-9]+) ");
    std::istringstream lines(console);
    std::vector<double> rates;
    for (std::string line;
         std::getline(lines, line) && line.find(" ops, get ") == std::string::npos;) {
        std::smatch m;
        if (std::regex_search(line, m, tick)) rates.push_back(std::stod(m[1]) + std::stod(m[2]));
    }
    return rates;
}

// How many tick lines the console printed for the phase, with figures or without.
inline size_t tick_lines(const std::string& console) {
    const std::regex tick("^[0-9:]{8} (hit:[0-9.]+% )?get/s:");
    std::istringstream lines(console);
    size_t n = 0;
    for (std::string line;
         std::getline(lines, line) && line.find(" ops, get ") == std::string::npos;)
        n += std::regex_search(line, tick);
    return n;
}

// The counts of `run --json`'s ops summed: an agent's requests, gets and sets.
inline uint64_t sum_counts(const nlohmann::json& ops) {
    uint64_t n = 0;
    for (const auto& [name, op] : ops.items())
        n += op["count"].get<uint64_t>();
    return n;
}

inline bool no_agent_left() {
    return run({"pgrep", "-f", std::string(PERFLAB_BINARY) + " agent"}).code == 1;
}

}  // namespace perflab::test
