// SPDX-License-Identifier: MIT
// The files a real memtier_benchmark 2.3.0 run wrote against memcached (tests/fixtures/memtier,
// made by tests/bench/memtier_fixtures.sh; each run's NAME.README says the exact command), and
// what memtier and the server said of the run, read from those files alone.
#pragma once

#include <cstdint>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "process.h"

namespace perflab::test {

inline std::string memtier_fixture(const std::string& file) {
    return std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/memtier/" + file;
}

inline nlohmann::json memtier_json(const std::string& run) {
    std::ifstream in(memtier_fixture(run + ".json"));
    return nlohmann::json::parse(in);
}

// memcached's `stats` after the run, as NAME.README lists them: "#   cmd_get 89087".
inline std::map<std::string, uint64_t> memcached_stats(const std::string& run) {
    std::map<std::string, uint64_t> stats;
    std::istringstream in(read_file(memtier_fixture(run + ".README")));
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::string hash, name;
        uint64_t value = 0;
        if (fields >> hash >> name >> value && hash == "#") stats[name] = value;
    }
    return stats;
}

// A row of the table memtier printed (NAME.stdout.txt): "Gets  29694.83  8514.09  21180.73
// 0.12240  0.09500  0.88700  4.35100  1720.84" → its numbers by column name.
struct MemtierRow {
    double ops_per_s = 0, hits_per_s = 0, misses_per_s = 0;
    double avg_ms = 0, p50_ms = 0, p99_ms = 0, p999_ms = 0;
};

inline MemtierRow memtier_printed(const std::string& run, const std::string& type) {
    std::istringstream in(read_file(memtier_fixture(run + ".stdout.txt")));
    MemtierRow row;
    for (std::string line; std::getline(in, line);) {
        std::istringstream fields(line);
        std::string name, hits, misses;
        if (!(fields >> name) || name != type) continue;
        fields >> row.ops_per_s >> hits >> misses >> row.avg_ms >> row.p50_ms >> row.p99_ms >>
            row.p999_ms;
        row.hits_per_s = hits == "---" ? 0 : std::stod(hits);
        row.misses_per_s = misses == "---" ? 0 : std::stod(misses);
    }
    return row;
}

}  // namespace perflab::test
