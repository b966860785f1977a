// SPDX-License-Identifier: MIT
// "cluster": true against a real three-node Redis Cluster the test makes: every count PerfLab
// reports equals the sum of what the nodes counted, and what it says each node answered is what
// that node counted; a stable cluster redirects nothing (each key went to its slot's master
// first time); a resharding during a run loses no op and its MOVED and ASK replies are the
// nodes' rejected calls; a server not in cluster mode fails the start saying so.
#include <gtest/gtest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cache/cluster_map.h"
#include "model/cache_report.h"
#include "process.h"
#include "redis_server.h"
#include "run_helpers.h"

namespace perflab::test {
namespace {

using nlohmann::json;

json cluster_spec(const std::string& seed, const std::string& workload, json phases) {
    return {{"name", "redis cluster"},
            {"kind", "cache"},
            {"tick_ms", 100},
            {"phases", std::move(phases)},
            {"cache",
             {{"servers", {seed}},
              {"protocol", "redis"},
              {"workload", workload},
              {"get_ratio", 3},
              {"set_ratio", 1},
              {"keys", {{"count", 3000}, {"prefix", "cl:"}}},
              {"value_size", {{"min", 16}, {"max", 512}}},
              {"threads", 2},
              {"pipeline", 8},
              {"redis", {{"cluster", true}}}}}};
}

uint64_t op_count(const RunSummary& s, const char* op) {
    const auto it = s.overall.totals.ops.find(op);
    return it == s.overall.totals.ops.end() ? 0 : it->second.count;
}

// What one node counted: calls and rejected calls (a MOVED or ASK reply) per command, hits and
// misses.
struct NodeCounts {
    uint64_t get, set, mget, rejected, asking, hits, misses;
};

NodeCounts counts(const RedisServer& node) {
    return {command_stat(node, "get", "calls"),
            command_stat(node, "set", "calls"),
            command_stat(node, "mget", "calls"),
            command_stat(node, "get", "rejected_calls") +
                command_stat(node, "set", "rejected_calls") +
                command_stat(node, "mget", "rejected_calls"),
            command_stat(node, "asking", "calls"),
            node.info_number("stats", "keyspace_hits"),
            node.info_number("stats", "keyspace_misses")};
}

std::vector<NodeCounts> counts(const RedisCluster& cluster) {
    std::vector<NodeCounts> out;
    for (size_t i = 0; i < cluster.size(); ++i)
        out.push_back(counts(cluster.node(i)));
    return out;
}

// What the run says node i answered, and the calls of one op in it.
const NodeTick& part(const RunSummary& s, const RedisCluster& cluster, size_t i) {
    static const NodeTick none;
    const auto it = s.overall.totals.nodes.find(cluster.node(i).endpoint());
    return it == s.overall.totals.nodes.end() ? none : it->second;
}

uint64_t calls(const NodeTick& n, const char* op) {
    const auto it = n.calls.find(op);
    return it == n.calls.end() ? 0 : it->second;
}

// The nodes' counts from `before` to `after`, summed.
NodeCounts delta(const std::vector<NodeCounts>& before, const std::vector<NodeCounts>& after) {
    NodeCounts d{};
    for (size_t i = 0; i < before.size(); ++i) {
        d.get += after[i].get - before[i].get;
        d.set += after[i].set - before[i].set;
        d.mget += after[i].mget - before[i].mget;
        d.rejected += after[i].rejected - before[i].rejected;
        d.asking += after[i].asking - before[i].asking;
        d.hits += after[i].hits - before[i].hits;
        d.misses += after[i].misses - before[i].misses;
    }
    return d;
}

TEST(RedisCluster, CountsAreTheSumOfTheNodesAndEachKeyWentToItsMaster) {
    RedisCluster cluster;
    const auto before = counts(cluster);
    const auto s = run_json(cluster_spec(cluster.node(1).endpoint(), "cache-aside",
                                         {{{"ops", 6000}, {"concurrency", 4}}}));
    const auto after = counts(cluster);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    const auto& t = s.overall.totals;
    const auto d = delta(before, after);
    EXPECT_EQ(t.total_errors(), 0u);
    EXPECT_EQ(op_count(s, "get"), 6000u);
    EXPECT_EQ(op_count(s, "get"), d.get);
    EXPECT_EQ(op_count(s, "set"), d.set);
    EXPECT_EQ(t.hits, d.hits);
    EXPECT_EQ(t.misses, d.misses);
    EXPECT_GT(t.hits, 0u);
    // Per node: each served its share, none refused a key as another master's, and what the
    // run says each answered is what that node counted.
    EXPECT_EQ(s.overall.totals.nodes.size(), cluster.size());
    for (size_t i = 0; i < cluster.size(); ++i) {
        const NodeTick& n = part(s, cluster, i);
        EXPECT_GT(after[i].get - before[i].get, 0u) << "node " << i;
        EXPECT_EQ(after[i].rejected, before[i].rejected) << "node " << i;
        EXPECT_EQ(calls(n, "get"), after[i].get - before[i].get) << "node " << i;
        EXPECT_EQ(calls(n, "set"), after[i].set - before[i].set) << "node " << i;
        EXPECT_EQ(n.hits, after[i].hits - before[i].hits) << "node " << i;
        EXPECT_EQ(n.misses, after[i].misses - before[i].misses) << "node " << i;
        EXPECT_EQ(n.moved + n.asked + n.errors, 0u) << "node " << i;
    }
    // What `perflab run` and `show` print: a row per node.
    const std::string text = cache_report_text(s);
    for (size_t i = 0; i < cluster.size(); ++i)
        EXPECT_NE(text.find("    " + cluster.node(i).endpoint() + " "), std::string::npos) << text;
    EXPECT_EQ(t.moved, 0u);
    EXPECT_EQ(t.asked, 0u);
}

// MGET's keys must share a slot in a cluster (else CROSSSLOT): a batch goes as one MGET per
// slot, and each of its keys is a hit or a miss as the nodes count it.
TEST(RedisCluster, MultiGetIsSplitBySlot) {
    RedisCluster cluster;
    auto spec =
        cluster_spec(cluster.node(0).endpoint(), "ratio", {{{"ops", 2000}, {"concurrency", 4}}});
    spec["cache"]["multiget"] = 8;
    const auto before = counts(cluster);
    const auto s = run_json(spec);
    const auto after = counts(cluster);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    const auto& t = s.overall.totals;
    const auto d = delta(before, after);
    EXPECT_EQ(t.total_errors(), 0u) << "errors: " << json(t.errors).dump();
    EXPECT_EQ(op_count(s, "mget"), 1500u);
    EXPECT_EQ(op_count(s, "set"), d.set);
    EXPECT_EQ(t.hits + t.misses, 8u * 1500u);
    EXPECT_EQ(t.hits, d.hits);
    EXPECT_EQ(t.misses, d.misses);
    EXPECT_GT(t.hits, 0u);
    // More MGETs reached the nodes than batches were timed: the batches' keys span slots.
    EXPECT_GT(d.mget, op_count(s, "mget"));
    EXPECT_EQ(d.rejected, 0u);
    // Each node's part: the MGETs it answered, one per slot of a batch's keys it holds.
    for (size_t i = 0; i < cluster.size(); ++i) {
        const NodeTick& n = part(s, cluster, i);
        EXPECT_EQ(calls(n, "mget"), after[i].mget - before[i].mget) << "node " << i;
        EXPECT_EQ(calls(n, "set"), after[i].set - before[i].set) << "node " << i;
        EXPECT_EQ(n.hits, after[i].hits - before[i].hits) << "node " << i;
        EXPECT_EQ(n.misses, after[i].misses - before[i].misses) << "node " << i;
    }
}

// Sees the run's ticks as they come: whether a MOVED was followed yet.
class MovedWatch : public RunObserver {
  public:
    void on_sample(const IntervalSample& s) override {
        if (s.moved > 0) seen.store(true);
    }
    std::atomic<bool> seen{false};
};

uint64_t dbsize(const RedisServer& node) {
    return std::stoull(node.cli({"DBSIZE"}));
}

// Slots move from one master to another while a run goes on: every op is still answered and
// counted once (the run's counts are the nodes'), MOVED replies are followed and counted, and
// every MOVED or ASK the run counted is a call a node refused. The key space is prefilled and
// sets only overwrite, so the keys the target gains are those MIGRATE moved, whose lookups the
// source counts as hits of its own.
TEST(RedisCluster, ReshardingDuringARunLosesNoOp) {
    RedisCluster cluster;
    auto spec = cluster_spec(cluster.node(0).endpoint(), "ratio",
                             {{{"duration_s", 120}, {"concurrency", 4}}});
    spec["cache"]["prefill"] = true;
    // A node stays blocked while MIGRATE moves a batch of keys: beside other tests, a GET
    // behind it once waited past the default 1 s and timed out. Lost ops are what this test
    // counts, not slow ones.
    spec["cache"]["timeout_ms"] = 30000;
    auto parsed = parse_spec(spec);
    ASSERT_TRUE(parsed) << parsed.error_text();
    const auto before = counts(cluster);
    RunController controller(*parsed.spec, make_engine(*parsed.spec));
    MovedWatch watch;
    controller.add_observer(&watch);
    RunSummary s;
    std::thread runner([&] { s = controller.run(); });
    const bool started = wait_until([&] { return counts(cluster.node(0)).get > before[0].get; },
                                    std::chrono::seconds(30));
    uint64_t migrated = 0;
    if (started) {
        const uint64_t target_keys = dbsize(cluster.node(1));
        cluster.reshard(0, 1, 2000);
        migrated = dbsize(cluster.node(1)) - target_keys;
        wait_until([&] { return watch.seen.load(); }, std::chrono::seconds(30));
    }
    controller.request_stop();
    runner.join();
    ASSERT_TRUE(started);
    const auto after = counts(cluster);
    ASSERT_EQ(s.status, RunStatus::stopped) << s.error;
    const auto& t = s.overall.totals;
    const auto d = delta(before, after);
    EXPECT_EQ(t.total_errors(), 0u) << "errors: " << json(t.errors).dump();
    EXPECT_EQ(op_count(s, "get"), d.get);
    EXPECT_EQ(op_count(s, "set") + s.prefill_sets, d.set);
    EXPECT_EQ(s.prefill_sets, 3000u);
    EXPECT_GT(migrated, 0u);
    EXPECT_EQ(t.hits + migrated, d.hits);
    EXPECT_EQ(t.misses, d.misses);
    EXPECT_EQ(t.sent, t.total_ops());
    EXPECT_GT(t.moved, 0u);
    EXPECT_LE(t.moved, t.total_ops());
    EXPECT_EQ(t.moved + t.asked, d.rejected);
    EXPECT_EQ(t.asked, d.asking);
    // Per node: the GETs each answered, and the redirections each replied, which it counted
    // as rejected calls. (Its SETs hold the prefill's, which no tick counts.)
    for (size_t i = 0; i < cluster.size(); ++i) {
        const NodeTick& n = part(s, cluster, i);
        EXPECT_EQ(calls(n, "get"), after[i].get - before[i].get) << "node " << i;
        EXPECT_EQ(n.moved + n.asked, after[i].rejected - before[i].rejected) << "node " << i;
    }
    EXPECT_GT(part(s, cluster, 0).moved, 0u);
    // What `perflab run` and `show` print.
    EXPECT_NE(cache_report_text(s).find("redirections: MOVED " + std::to_string(t.moved) +
                                        ", ASK " + std::to_string(t.asked)),
              std::string::npos)
        << cache_report_text(s);
}

// The slot of a key, its {hash tag}'s when it has one, as a cluster node computes it.
TEST(RedisCluster, KeySlotsAreTheServersOwn) {
    RedisServer node({"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                      "--cluster-port", std::to_string(free_port())});
    for (const std::string key :
         {"", "foo", "123456789", "cl:2999", "{user1000}.following", "{user1000}.followers",
          "foo{}{bar}", "foo{{bar}}zap", "foo{bar}{zap}", "{", "}{x}", "\xff\x01"})
        EXPECT_EQ(node.cli({"CLUSTER", "KEYSLOT", key}),
                  std::to_string(cluster_key_slot(key)) + "\n")
            << key;
}

TEST(RedisCluster, AServerNotInClusterModeFailsTheStartSayingSo) {
    RedisServer server;
    const auto s = run_json(
        cluster_spec(server.endpoint(), "cache-aside", {{{"ops", 10}, {"concurrency", 1}}}));
    EXPECT_EQ(s.status, RunStatus::failed);
    EXPECT_NE(s.error.find("cache.redis.cluster: " + server.endpoint() + ": CLUSTER SLOTS: ERR"),
              std::string::npos)
        << s.error;
    EXPECT_NE(s.error.find("cluster support disabled"), std::string::npos) << s.error;
    EXPECT_EQ(server.calls("get") + server.calls("set"), 0u);
}

}  // namespace
}  // namespace perflab::test
