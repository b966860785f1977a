// SPDX-License-Identifier: MIT
// A controller for agent tests: this build's perflab run with its own known_hosts trusting
// the test's sshd hosts, and the checks every agent test ends with.
#pragma once

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

inline bool no_agent_left() {
    return run({"pgrep", "-f", std::string(PERFLAB_BINARY) + " agent"}).code == 1;
}

}  // namespace perflab::test
