// SPDX-License-Identifier: MIT
// Load from several agent hosts: two real sshd on loopback stand for two hosts, each running
// this build's perflab as its agent, against a real memcached.
#include <gtest/gtest.h>
#include <signal.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agent_helpers.h"
#include "memcached_server.h"
#include "model/histogram.h"
#include "process.h"
#include "sshd_server.h"

namespace perflab {
namespace {

using nlohmann::json;
using test::agent;
using test::agents_latency_merged;
using test::Controller;
using test::MemcachedServer;
using test::no_agent_left;
using test::SshdServer;
using test::TempDir;
using test::whole_tick_rates;

json cache_spec(const MemcachedServer& server, json agents, double duration_s = 2) {
    return {{"name", "agents"},
            {"kind", "cache"},
            {"tick_ms", 500},
            {"phases", {{{"duration_s", duration_s}, {"concurrency", 4}}}},
            {"cache", {{"servers", {server.endpoint()}}, {"workload", "ratio"}}},
            {"agents", std::move(agents)}};
}

TEST(Agents, ClosedModelCountsEqualMemcachedStats) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    const auto before = test::cache_counters(server);
    const auto r = controller.run(cache_spec(server, {agent(a), agent(b)}), {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto after = test::cache_counters(server);
    const json j = json::parse(r.out);
    const uint64_t gets = j["ops"]["get"]["count"].get<uint64_t>();
    const uint64_t sets = j["ops"]["set"]["count"].get<uint64_t>();
    EXPECT_GT(gets, 0u);
    EXPECT_GT(sets, 0u);
    EXPECT_EQ(gets, after.cmd_get - before.cmd_get);
    EXPECT_EQ(sets, after.cmd_set - before.cmd_set);
    EXPECT_EQ(j["hits"].get<uint64_t>(), after.get_hits - before.get_hits);
    // The merged counts are the agents' summed, and each agent's share is an event.
    ASSERT_EQ(j["agents"].size(), 2u);
    uint64_t agent_gets = 0, agent_sets = 0;
    const SshdServer* hosts[] = {&a, &b};
    for (size_t i = 0; i < 2; ++i) {
        const auto& ops = j["agents"][i]["ops"];
        const uint64_t g = ops["get"]["count"].get<uint64_t>(),
                       s = ops["set"]["count"].get<uint64_t>();
        EXPECT_GT(g, 0u);
        EXPECT_GT(j["agents"][i]["cpu_max"].get<double>(), 0) << j["agents"][i].dump();
        agent_gets += g;
        agent_sets += s;
        const std::string host = "agent " + hosts[i]->target() + ": ";
        EXPECT_NE(r.err.find(host + "clock offset"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(host + std::to_string(g + s) + " ops"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(", CPU max ", r.err.find(host + std::to_string(g + s))),
                  std::string::npos)
            << r.err;
    }
    EXPECT_EQ(agent_gets, gets);
    EXPECT_EQ(agent_sets, sets);
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

// A stored run keeps each agent's share, clock and machine: `show` and the reports give them
// back, equal to what the run printed.
TEST(Agents, StoredRunKeepsEachAgentsShareAndMachine) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    const std::string db = controller.dir().file("runs.db");
    const auto r = controller.run(cache_spec(server, {agent(a), agent(b)}), {"--db", db, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json ran = json::parse(r.out);
    const auto show = test::run({PERFLAB_BINARY, "show", "1", "--db", db, "--json"});
    ASSERT_EQ(show.code, 0) << show.err;
    const json shown = json::parse(show.out);
    ASSERT_EQ(shown["agents"].size(), 2u) << show.out;
    for (size_t i = 0; i < 2; ++i) {
        const json& stored = shown["agents"][i];
        EXPECT_EQ(stored["host"], ran["agents"][i]["host"]);
        EXPECT_EQ(stored["ops"], ran["agents"][i]["ops"]);
        EXPECT_EQ(stored["clock_uncertainty_ns"], ran["agents"][i]["clock_uncertainty_ns"]);
        EXPECT_GT(stored["clock_uncertainty_ns"].get<int64_t>(), 0);
        EXPECT_GT(stored["bytes_per_tick"].get<uint64_t>(), 0u);
    }
    bool agent_machine = false;
    for (const auto& h : shown["hosts"])
        agent_machine |=
            h["role"] == "agent" && !h["profile"]["cpu_model"].get<std::string>().empty();
    EXPECT_TRUE(agent_machine) << shown["hosts"].dump();
    const auto text = test::run({PERFLAB_BINARY, "show", "1", "--db", db});
    for (const SshdServer* host : {&a, &b})
        EXPECT_NE(text.out.find("| " + host->target() + " | whole | "), std::string::npos)
            << text.out;
    const std::string md = controller.dir().file("run.md");
    ASSERT_EQ(
        test::run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "md", "-o", md}).code, 0);
    EXPECT_NE(test::read_file(md).find("## Agents"), std::string::npos);
}

// Agent k of 2 sends the run's ops k, k+2, ...: together exactly the planned schedule.
TEST(Agents, OpenModelSendsEveryPlannedOpOnce) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    json spec = cache_spec(server, {agent(a), agent(b)});
    spec["phases"] = {{{"duration_s", 2}, {"rate", 400}, {"concurrency", 4}}};
    const auto before = test::cache_counters(server);
    const auto r = controller.run(spec, {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto after = test::cache_counters(server);
    const json j = json::parse(r.out);
    const uint64_t served = (after.cmd_get - before.cmd_get) + (after.cmd_set - before.cmd_set);
    const uint64_t counted =
        j["ops"]["get"]["count"].get<uint64_t>() + j["ops"]["set"]["count"].get<uint64_t>();
    EXPECT_EQ(counted, served);
    EXPECT_EQ(j["sent"].get<uint64_t>(), served);
    EXPECT_EQ(served + j["dropped"].get<uint64_t>(), 800u);  // 400/s for 2 s
    // The merged p99 is that of the agents' histograms merged here.
    const Histogram by_hand = agents_latency_merged(j);
    EXPECT_EQ(by_hand.count(), counted);
    EXPECT_EQ(json(by_hand.percentile(99)), j["latency_us"]["p99"]) << j.dump();
    // Both agents' ticks merged into the run's: at most four 500 ms ticks with figures, not a
    // line per agent (fewer when an agent is behind: its tick then comes with the next).
    const auto ticks = whole_tick_rates(r.err).size();
    EXPECT_GE(ticks, 1u) << r.err;
    EXPECT_LE(ticks, 4u) << r.err;
}

TEST(Agents, WrongProgramPathStopsTheRunNamingTheHost) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    const auto r = controller.run(cache_spec(server, {agent(a), agent(b, "/nonexistent/perflab")}));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.err.find("agent " + b.target()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("/nonexistent/perflab"), std::string::npos) << r.err;
    EXPECT_EQ(server.stat("cmd_get") + server.stat("cmd_set"), 0u) << "load was sent";
}

TEST(Agents, VersionMismatchStopsTheRunNamingTheHost) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    // An agent of another release: says hello with its version, then waits.
    controller.dir().write("old_perflab",
                           "#!/bin/sh\necho '{\"v\":1,\"type\":\"hello\",\"version\":\"0.0.1\"}'\n"
                           "exec cat >/dev/null\n");
    std::filesystem::permissions(controller.dir().file("old_perflab"),
                                 std::filesystem::perms::owner_all);
    const auto r = controller.run(
        cache_spec(server, {agent(a), agent(b, controller.dir().file("old_perflab"))}));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.err.find("agent " + b.target() + ": runs PerfLab 0.0.1"), std::string::npos)
        << r.err;
    EXPECT_EQ(server.stat("cmd_get") + server.stat("cmd_set"), 0u) << "load was sent";
}

// An agent behind a slow link (here: one that answers each clock ping 60 ms late) cannot
// place its ticks within 5% of a 500 ms tick, and is refused.
TEST(Agents, UncertainClockStopsTheRunNamingTheHost) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    const auto hello = test::run({PERFLAB_BINARY, "agent"}).out;  // stdin closed: says hello only
    const std::string hello_line = hello.substr(0, hello.find('\n'));
    std::string script = "#!/usr/bin/python3\nimport sys, time\n";
    script += "print(" + json(hello_line).dump() + ", flush=True)\n";
    script += "for line in sys.stdin:\n";
    script += "    time.sleep(0.06)\n";
    script +=
        "    print('{\"v\":1,\"type\":\"pong\",\"t_ns\":%d}' % time.monotonic_ns(), flush=True)\n";
    controller.dir().write("slow_perflab", script);
    std::filesystem::permissions(controller.dir().file("slow_perflab"),
                                 std::filesystem::perms::owner_all);
    const auto r = controller.run(
        cache_spec(server, {agent(a), agent(b, controller.dir().file("slow_perflab"))}));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.err.find("agent " + b.target() + ": its clock is known only to"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("over 5% of a tick (25.000 ms)"), std::string::npos) << r.err;
    EXPECT_EQ(server.stat("cmd_get") + server.stat("cmd_set"), 0u) << "load was sent";
}

TEST(Agents, UntrustedHostKeyStopsTheRunNamingTheHost) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a});  // b's key is not in known_hosts
    const auto r = controller.run(cache_spec(server, {agent(a), agent(b)}));
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.err.find("agent " + b.target()), std::string::npos) << r.err;
    EXPECT_EQ(server.stat("cmd_get") + server.stat("cmd_set"), 0u) << "load was sent";
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

TEST(Agents, LostAgentIsToldAndTheRunGoesOn) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    const auto spec = cache_spec(server, {agent(a), agent(b)}, 4);
    test::Process run(controller.command(spec, {}), controller.dir().file("out"),
                      controller.dir().file("err"));
    // Once both agents send load, b's host goes away.
    ASSERT_TRUE(test::wait_until(
        [&] {
            return test::read_file(controller.dir().file("out")).find(" get/s:") !=
                   std::string::npos;
        },
        std::chrono::seconds(20)));
    b.stop();
    EXPECT_EQ(run.wait(), 0) << test::read_file(controller.dir().file("err"));
    const std::string out = test::read_file(controller.dir().file("out"));
    EXPECT_NE(out.find("agent " + b.target() + " lost"), std::string::npos) << out;
    EXPECT_NE(out.find("its share is missing from now on"), std::string::npos) << out;
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

TEST(Agents, LostAgentStopsTheRunWhenTheSpecSaysSo) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    auto spec = cache_spec(server, {agent(a), agent(b)}, 30);
    spec["on_agent_loss"] = "stop";
    test::Process run(controller.command(spec, {"--json"}), controller.dir().file("out"),
                      controller.dir().file("err"));
    ASSERT_TRUE(test::wait_until(
        [&] {
            return test::read_file(controller.dir().file("err")).find(" get/s:") !=
                   std::string::npos;
        },
        std::chrono::seconds(20)));
    b.stop();
    run.wait();
    const std::string err = test::read_file(controller.dir().file("err"));
    EXPECT_NE(err.find("agent " + b.target() + " lost"), std::string::npos) << err;
    const json j = json::parse(test::read_file(controller.dir().file("out")));
    EXPECT_EQ(j["status"], "stopped") << err;
    EXPECT_LT(j["duration_s"].get<double>(), 25) << err;
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

// The controller killed outright: its agents see their input close and stop.
TEST(Agents, KilledControllerLeavesNoAgentRunning) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    test::Process run(controller.command(cache_spec(server, {agent(a), agent(b)}, 30), {}),
                      controller.dir().file("out"), controller.dir().file("err"));
    // Two SSH logins and two agents' start: seconds on a quiet machine, far more on a loaded one.
    ASSERT_TRUE(test::wait_until(
        [&] {
            return test::read_file(controller.dir().file("out")).find(" get/s:") !=
                   std::string::npos;
        },
        std::chrono::seconds(60)));
    EXPECT_FALSE(no_agent_left());
    run.signal(SIGKILL);
    run.wait();
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

// A local agent beside a remote one: this machine sends its share too.
TEST(Agents, LocalAgentSendsItsShare) {
    MemcachedServer server;
    SshdServer a;
    const Controller controller({&a});
    const auto before = test::cache_counters(server);
    const auto r = controller.run(cache_spec(server, {{{"local", true}}, agent(a)}), {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto after = test::cache_counters(server);
    const json j = json::parse(r.out);
    EXPECT_EQ(j["ops"]["get"]["count"].get<uint64_t>(), after.cmd_get - before.cmd_get);
    EXPECT_EQ(j["ops"]["set"]["count"].get<uint64_t>(), after.cmd_set - before.cmd_set);
    ASSERT_EQ(j["agents"].size(), 2u);
    for (const auto& agent : j["agents"])
        EXPECT_GT(agent["ops"]["get"]["count"].get<uint64_t>(), 0u) << agent.dump();
}

}  // namespace
}  // namespace perflab
