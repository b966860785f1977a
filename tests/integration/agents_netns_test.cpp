// SPDX-License-Identifier: MIT
// Agents on hosts of their own: two network namespaces, each joined to this one by a veth
// pair and running a real sshd, start this build's perflab as their agents; memcached and
// nginx listen on this side, where the agents reach them over the veth pairs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "agent_helpers.h"
#include "memcached_server.h"
#include "model/histogram.h"
#include "net_namespace.h"
#include "nginx_server.h"
#include "process.h"
#include "sshd_server.h"

namespace perflab {
namespace {

using nlohmann::json;
using test::agent;
using test::agents_latency_merged;
using test::Controller;
using test::MemcachedServer;
using test::NetNamespace;
using test::NginxServer;
using test::no_agent_left;
using test::SshdServer;
using test::sum_counts;
using test::tick_lines;
using test::whole_tick_rates;

// Two agent hosts; the servers under test listen on the first pair's near address, which the
// second namespace reaches through this host too.
struct TwoHosts {
    NetNamespace net_a, net_b;
    SshdServer a{&net_a}, b{&net_b};
    Controller controller{{&a, &b}};
    std::string server_address() const { return net_a.host_address(); }
    // A memcached listening on server_address() too, as the agents reach it.
    std::string endpoint(const MemcachedServer& server) const {
        return server_address() + ":" + std::to_string(server.port());
    }
    json agents() const { return {agent(a), agent(b)}; }
};

json cache_spec(const std::string& server, json agents, json phases, int tick_ms = 500) {
    return {{"name", "agents on their own hosts"},
            {"kind", "cache"},
            {"tick_ms", tick_ms},
            {"phases", std::move(phases)},
            {"cache", {{"servers", {server}}, {"workload", "ratio"}}},
            {"agents", std::move(agents)}};
}

TEST(AgentsNetns, CacheCountsEqualMemcachedStatsAndTheAgentsSum) {
    TwoHosts hosts;
    MemcachedServer server(64, {"-l", hosts.server_address()});
    const std::string endpoint = hosts.endpoint(server);
    const auto before = test::cache_counters(server);
    const auto r = hosts.controller.run(
        cache_spec(endpoint, hosts.agents(), {{{"duration_s", 2}, {"concurrency", 4}}}),
        {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto after = test::cache_counters(server);
    const json j = json::parse(r.out);
    const uint64_t gets = j["ops"]["get"]["count"].get<uint64_t>();
    const uint64_t sets = j["ops"]["set"]["count"].get<uint64_t>();
    EXPECT_GT(gets, 0u);
    EXPECT_EQ(gets, after.cmd_get - before.cmd_get);
    EXPECT_EQ(sets, after.cmd_set - before.cmd_set);
    EXPECT_EQ(j["hits"].get<uint64_t>(), after.get_hits - before.get_hits);
    ASSERT_EQ(j["agents"].size(), 2u);
    uint64_t agents_gets = 0, agents_sets = 0;
    for (const auto& a : j["agents"]) {
        EXPECT_GT(a["ops"]["get"]["count"].get<uint64_t>(), 0u) << a.dump();
        agents_gets += a["ops"]["get"]["count"].get<uint64_t>();
        agents_sets += a["ops"]["set"]["count"].get<uint64_t>();
    }
    EXPECT_EQ(agents_gets, gets);
    EXPECT_EQ(agents_sets, sets);
    // Each agent came from its own address: memcached saw connections from both.
    EXPECT_NE(r.err.find("agent " + hosts.a.target() + ": clock offset"), std::string::npos);
    EXPECT_NE(r.err.find("agent " + hosts.b.target() + ": clock offset"), std::string::npos);
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

TEST(AgentsNetns, HttpRequestsEqualNginxsLog) {
    TwoHosts hosts;
    NginxServer nginx(false, 75000, {hosts.server_address()});
    const json spec = {
        {"name", "http from two hosts"},
        {"kind", "http"},
        {"tick_ms", 500},
        {"phases", {{{"duration_s", 2}, {"concurrency", 4}}}},
        {"http", {{"targets", {{{"url", nginx.url_on(hosts.server_address(), "/ok")}}}}}},
        {"agents", hosts.agents()}};
    const auto r = hosts.controller.run(spec, {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    const uint64_t requests = j["requests"].get<uint64_t>();
    EXPECT_GT(requests, 0u);
    EXPECT_EQ(nginx.wait_for_requests(requests), requests);
    EXPECT_EQ(nginx.requests_to("/ok"), requests);
    ASSERT_EQ(j["agents"].size(), 2u);
    uint64_t agents_requests = 0;
    for (const auto& a : j["agents"]) {
        EXPECT_GT(sum_counts(a["ops"]), 0u) << a.dump();
        agents_requests += sum_counts(a["ops"]);
    }
    EXPECT_EQ(agents_requests, requests);
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

// 4000/s from two hosts: every planned op sent once (memcached's count), four ticks, and the
// merged p99 is the p99 of the agents' own histograms merged here.
TEST(AgentsNetns, OpenModelSendsThePlanFromTwoHosts) {
    TwoHosts hosts;
    MemcachedServer server(64, {"-l", hosts.server_address()});
    const std::string endpoint = hosts.endpoint(server);
    const auto before = test::cache_counters(server);
    const auto r = hosts.controller.run(
        cache_spec(endpoint, hosts.agents(),
                   {{{"duration_s", 4}, {"rate", 4000}, {"concurrency", 8}}}, 1000),
        {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto after = test::cache_counters(server);
    const json j = json::parse(r.out);
    const uint64_t counted = sum_counts(j["ops"]);
    EXPECT_EQ(counted, (after.cmd_get - before.cmd_get) + (after.cmd_set - before.cmd_set));
    EXPECT_EQ(counted + j["dropped"].get<uint64_t>(), 16000u);
    const Histogram by_hand = agents_latency_merged(j);
    EXPECT_EQ(by_hand.count(), counted);
    EXPECT_EQ(json(by_hand.percentile(99)), j["latency_us"]["p99"]) << j.dump();
    // A line per tick, not per agent; fewer of them with figures when an agent is behind (its
    // tick then comes with the next).
    EXPECT_EQ(tick_lines(r.err), 4u) << r.err;
    EXPECT_GE(whole_tick_rates(r.err).size(), 1u) << r.err;
}

// One host's sshd dies mid-run: the run goes on with the other agent and says so, and the
// agent on that host, its channel gone, stops on its own.
TEST(AgentsNetns, KilledSshdLeavesTheRunGoingAndNoAgentBehind) {
    TwoHosts hosts;
    MemcachedServer server(64, {"-l", hosts.server_address()});
    const std::string endpoint = hosts.endpoint(server);
    const auto spec =
        cache_spec(endpoint, hosts.agents(), {{{"duration_s", 4}, {"concurrency", 4}}});
    const auto& dir = hosts.controller.dir();
    test::Process run(hosts.controller.command(spec, {}), dir.file("out"), dir.file("err"));
    ASSERT_TRUE(test::wait_until(
        [&] { return test::read_file(dir.file("out")).find(" get/s:") != std::string::npos; },
        std::chrono::seconds(20)));
    hosts.b.kill_sshd();
    EXPECT_EQ(run.wait(), 0) << test::read_file(dir.file("err"));
    const std::string out = test::read_file(dir.file("out"));
    EXPECT_NE(out.find("agent " + hosts.b.target() + " lost"), std::string::npos) << out;
    EXPECT_NE(out.find("its share is missing from now on"), std::string::npos) << out;
    EXPECT_NE(out.find("agent " + hosts.a.target() + ": "), std::string::npos) << out;
    EXPECT_TRUE(test::wait_until(no_agent_left, std::chrono::seconds(10)));
}

}  // namespace
}  // namespace perflab
