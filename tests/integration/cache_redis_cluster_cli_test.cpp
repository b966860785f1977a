// SPDX-License-Identifier: MIT
// A Redis Cluster run's redirections and nodes are stored with its ticks: after a resharding
// during `perflab run`, `show --json` of the stored run says the MOVED and ASK totals and the
// nodes' parts `run --json` printed, both equal to the calls the nodes refused (in all and each
// node), and show's text, the Markdown and CSV exports and compare carry them too.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "process.h"
#include "redis_server.h"

namespace perflab::test {
namespace {

using nlohmann::json;

json cluster_spec(const std::string& seed) {
    return {{"name", "redis cluster stored"},
            {"kind", "cache"},
            {"tick_ms", 100},
            {"phases", {{{"duration_s", 120}, {"concurrency", 4}}}},
            {"cache",
             {{"servers", {seed}},
              {"protocol", "redis"},
              {"workload", "ratio"},
              {"get_ratio", 3},
              {"set_ratio", 1},
              {"keys", {{"count", 3000}, {"prefix", "st:"}}},
              {"value_size", {{"min", 16}, {"max", 256}}},
              {"prefill", true},
              {"threads", 2},
              {"pipeline", 8},
              {"redis", {{"cluster", true}}}}}};
}

// The calls every node refused with MOVED or ASK, and the ASKINGs that followed an ASK.
struct Refused {
    uint64_t rejected = 0;
    uint64_t asking = 0;
};

Refused refused(const RedisCluster& cluster) {
    Refused r;
    for (const char* command : {"get", "set", "mget"})
        r.rejected += cluster.command_stat(command, "rejected_calls");
    r.asking = cluster.command_stat("asking", "calls");
    return r;
}

// The calls each node refused.
std::vector<uint64_t> refused_per_node(const RedisCluster& cluster) {
    std::vector<uint64_t> out;
    for (size_t i = 0; i < cluster.size(); ++i) {
        uint64_t n = 0;
        for (const char* command : {"get", "set", "mget"})
            n += command_stat(cluster.node(i), command, "rejected_calls");
        out.push_back(n);
    }
    return out;
}

Output perflab(std::vector<std::string> args) {
    args.insert(args.begin(), PERFLAB_BINARY);
    return run(args);
}

std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string field; std::getline(in, field, ',');)
        out.push_back(field);
    return out;
}

// The sum of a CSV column, found by its header; its fields hold plain numbers.
uint64_t column_sum(const std::string& csv, const std::string& name) {
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);
    const auto header = fields(line);
    const size_t index = size_t(std::find(header.begin(), header.end(), name) - header.begin());
    EXPECT_LT(index, header.size()) << name << " not in " << line;
    uint64_t sum = 0;
    while (std::getline(in, line))
        if (const auto row = fields(line); index < row.size()) sum += std::stoull(row[index]);
    return sum;
}

TEST(RedisClusterStored, ShowSaysTheRedirectionsRunPrinted) {
    RedisCluster cluster;
    TempDir dir;
    const std::string db = dir.file("runs.db");
    dir.write("spec.json", cluster_spec(cluster.node(0).endpoint()).dump());
    const Refused before = refused(cluster);
    const auto node_before = refused_per_node(cluster);
    const uint64_t gets_before = cluster.command_stat("get", "calls");
    Process p({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "--json"}, dir.file("out"),
              dir.file("err"));
    // Past the prefill: the run's gets reach the nodes.
    ASSERT_TRUE(wait_until([&] { return cluster.command_stat("get", "calls") > gets_before; },
                           std::chrono::seconds(30)))
        << read_file(dir.file("err"));
    cluster.reshard(0, 1, 2000);
    // A node refused a call of the run's: a redirection the run followed.
    ASSERT_TRUE(wait_until([&] { return refused(cluster).rejected > before.rejected; },
                           std::chrono::seconds(30)));
    p.signal(SIGINT);
    ASSERT_EQ(p.wait(), 0) << read_file(dir.file("err"));
    const Refused after = refused(cluster);
    const auto node_after = refused_per_node(cluster);

    const json printed = json::parse(read_file(dir.file("out")));
    const auto moved = printed["redirections"]["moved"].get<uint64_t>();
    const auto ask = printed["redirections"]["ask"].get<uint64_t>();
    EXPECT_GT(moved, 0u);
    EXPECT_EQ(moved + ask, after.rejected - before.rejected);
    EXPECT_EQ(ask, after.asking - before.asking);
    // Each node's part: the redirections it replied are the calls it refused.
    for (size_t i = 0; i < cluster.size(); ++i) {
        const json& node = printed["nodes"][cluster.node(i).endpoint()];
        ASSERT_TRUE(node.is_object()) << printed["nodes"].dump();
        EXPECT_EQ(node["moved"].get<uint64_t>() + node["ask"].get<uint64_t>(),
                  node_after[i] - node_before[i])
            << "node " << i;
    }

    const std::string err = read_file(dir.file("err"));
    std::smatch stored_as;
    ASSERT_TRUE(std::regex_search(err, stored_as, std::regex(R"(run (\d+) stored in )"))) << err;
    const std::string id = stored_as[1];
    const Output shown = perflab({"show", id, "--db", db, "--json"});
    ASSERT_EQ(shown.code, 0) << shown.err;
    const json stored = json::parse(shown.out)["summary"];
    EXPECT_EQ(stored["redirections"], printed["redirections"]) << stored.dump();
    EXPECT_EQ(stored["requests"], printed["requests"]);
    EXPECT_EQ(stored["nodes"], printed["nodes"]);

    const std::string line =
        "redirections: MOVED " + std::to_string(moved) + ", ASK " + std::to_string(ask);
    const Output text = perflab({"show", id, "--db", db});
    EXPECT_NE(text.out.find(line), std::string::npos) << text.out;
    for (size_t i = 0; i < cluster.size(); ++i)
        EXPECT_NE(text.out.find("    " + cluster.node(i).endpoint() + " "), std::string::npos)
            << text.out;
    const Output md = perflab({"export", id, "--db", db, "--format", "md"});
    EXPECT_NE(
        md.out.find("redirections MOVED " + std::to_string(moved) + ", ASK " + std::to_string(ask)),
        std::string::npos)
        << md.out;
    EXPECT_NE(md.out.find("## Cluster nodes"), std::string::npos) << md.out;
    const Output csv = perflab({"export", id, "--db", db, "--format", "csv"});
    ASSERT_EQ(csv.code, 0) << csv.err;
    EXPECT_EQ(column_sum(csv.out, "moved"), moved);
    EXPECT_EQ(column_sum(csv.out, "ask"), ask);
    const Output compared = perflab({"compare", id, id, "--db", db, "--json"});
    ASSERT_EQ(compared.code, 0) << compared.err;
    const json figures = json::parse(compared.out)["figures"];
    EXPECT_EQ(figures["redis_moved"]["values"], json::array({moved, moved})) << figures.dump();
    EXPECT_EQ(figures["redis_ask"]["values"], json::array({ask, ask})) << figures.dump();
}

}  // namespace
}  // namespace perflab::test
