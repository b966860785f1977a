// SPDX-License-Identifier: MIT
// Agents on hosts of their own: two network namespaces, each joined to this one by a veth
// pair and running a real sshd, start this build's perflab as their agents; memcached and
// nginx listen on this side, where the agents reach them over the veth pairs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "agent_helpers.h"
#include "base64.h"
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
using test::Controller;
using test::MemcachedServer;
using test::NetNamespace;
using test::NginxServer;
using test::no_agent_left;
using test::SshdServer;

// Two agent hosts; the servers under test listen on the first pair's near address, which the
// second namespace reaches through this host too.
struct TwoHosts {
    NetNamespace net_a, net_b;
    SshdServer a{&net_a}, b{&net_b};
    Controller controller{{&a, &b}};
    std::string server_address() const { return net_a.host_address(); }
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

uint64_t sum_counts(const json& ops) {
    uint64_t n = 0;
    for (const auto& [name, op] : ops.items())
        n += op["count"].get<uint64_t>();
    return n;
}

TEST(AgentsNetns, CacheCountsEqualMemcachedStatsAndTheAgentsSum) {
    TwoHosts hosts;
    MemcachedServer server(64, {"-l", hosts.server_address()});
    const std::string endpoint = hosts.server_address() + ":" + std::to_string(server.port());
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

// 4000/s from two hosts: every tick holds the rate within 1%, and the merged p99 is the p99
// of the agents' own histograms merged here.
TEST(AgentsNetns, OpenModelHoldsTheRateEveryTick) {
    TwoHosts hosts;
    MemcachedServer server(64, {"-l", hosts.server_address()});
    const std::string endpoint = hosts.server_address() + ":" + std::to_string(server.port());
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
    Histogram by_hand;
    for (const auto& a : j["agents"])
        for (const auto& [name, op] : a["ops"].items())
            by_hand.merge(*Histogram::decode(*base64_decode(op["latency_hdr"].get<std::string>())));
    EXPECT_EQ(by_hand.count(), counted);
    EXPECT_EQ(json(by_hand.percentile(99)), j["latency_us"]["p99"]) << j.dump();
    const std::regex tick("^[0-9:]{8} hit:[0-9.]+% get/s:([0-9]+) .* set/s:([0-9]+) ");
    std::istringstream lines(r.err);
    int ticks = 0;
    // The phase's whole ticks come before the agents' totals; a drain after them holds the
    // replies that came after the phase's last tick.
    for (std::string line;
         std::getline(lines, line) && line.find(" ops, get ") == std::string::npos;) {
        std::smatch m;
        if (!std::regex_search(line, m, tick)) continue;
        ++ticks;
        EXPECT_NEAR(std::stod(m[1]) + std::stod(m[2]), 4000, 40) << line << "\n" << r.err;
    }
    EXPECT_EQ(ticks, 4) << r.err;
}

// One host's sshd dies mid-run: the run goes on with the other agent and says so, and the
// agent on that host, its channel gone, stops on its own.
TEST(AgentsNetns, KilledSshdLeavesTheRunGoingAndNoAgentBehind) {
    TwoHosts hosts;
    MemcachedServer server(64, {"-l", hosts.server_address()});
    const std::string endpoint = hosts.server_address() + ":" + std::to_string(server.port());
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
