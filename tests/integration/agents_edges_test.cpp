// SPDX-License-Identifier: MIT
// The edges of a run on agents: a prefill, a server nobody reaches, secrets, a replay's lines,
// and an agent whose output is not records. Real sshd on loopback for the hosts, this build's
// perflab as each agent, real memcached and a real HTTP server.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "agent_helpers.h"
#include "http_test_server.h"
#include "memcached_server.h"
#include "process.h"
#include "sshd_server.h"

namespace perflab {
namespace {

using nlohmann::json;
using test::agent;
using test::Controller;
using test::MemcachedServer;
using test::no_agent_left;
using test::SshdServer;

json cache_spec(const std::string& endpoint, json agents, double duration_s = 2) {
    return {{"name", "agents-edges"},
            {"kind", "cache"},
            {"tick_ms", 500},
            {"phases", {{{"duration_s", duration_s}, {"concurrency", 4}}}},
            {"cache", {{"servers", {endpoint}}, {"workload", "ratio"}}},
            {"agents", std::move(agents)}};
}

// An executable script in the controller's directory, standing for an agent program.
std::string script(const Controller& controller, const std::string& name, const std::string& text) {
    controller.dir().write(name, text);
    std::filesystem::permissions(controller.dir().file(name), std::filesystem::perms::owner_all);
    return controller.dir().file(name);
}

// The real agent behind a filter that passes its records on and, after its first tick, writes
// `fault` (Python bytes) to the channel.
std::string faulty_agent(const Controller& controller, const std::string& name,
                         const std::string& fault) {
    return script(controller, name,
                  "#!/usr/bin/python3\n"
                  "import subprocess, sys\n"
                  "agent = subprocess.Popen(['" PERFLAB_BINARY
                  "', 'agent'], "
                  "stdout=subprocess.PIPE)\n"
                  "out = sys.stdout.buffer\n"
                  "faulted = False\n"
                  "for line in agent.stdout:\n"
                  "    out.write(line)\n"
                  "    out.flush()\n"
                  "    if not faulted and b'\"type\":\"tick\"' in line:\n"
                  "        faulted = True\n" +
                      fault + "        out.flush()\n");
}

// The largest resident set of any child this test process waited for, in MB.
double children_max_rss_mb() {
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

// Both drivers: each agent sets its share of the key space, every key once in all.
class AgentsPrefill : public testing::TestWithParam<std::string> {};

TEST_P(AgentsPrefill, SetsEachKeyOnceAndSaysSo) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    json spec = cache_spec(server.endpoint(), {agent(a), agent(b)}, 1);
    spec["cache"]["keys"] = {{"count", 1000}};
    spec["cache"]["prefill"] = true;
    spec["cache"]["driver"] = GetParam();
    spec["cache"]["workload"] = "get-only";
    const auto before = test::cache_counters(server);
    const auto r = controller.run(spec, {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto after = test::cache_counters(server);
    const json j = json::parse(r.out);
    EXPECT_EQ(after.cmd_set - before.cmd_set, 1000u);
    EXPECT_EQ(server.keys().size(), 1000u);
    EXPECT_EQ(j["prefill_sets"], 1000) << r.err;
    EXPECT_GT(j["ops"]["get"]["count"].get<uint64_t>(), 0u);
    EXPECT_EQ(j["ops"]["get"]["count"].get<uint64_t>(), after.cmd_get - before.cmd_get);
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

INSTANTIATE_TEST_SUITE_P(Drivers, AgentsPrefill, testing::Values("async", "libmemcached"));

// This machine as one of three agents: its share is set here, the others' there.
TEST(AgentsEdges, PrefillWithALocalAgentSetsEachKeyOnce) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    json spec = cache_spec(server.endpoint(), {agent(a), {{"local", true}}, agent(b)}, 1);
    spec["phases"][0]["concurrency"] = 5;
    spec["cache"]["keys"] = {{"count", 1001}};
    spec["cache"]["prefill"] = true;
    spec["cache"]["workload"] = "get-only";
    const auto before = test::cache_counters(server);
    const auto r = controller.run(spec, {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(test::cache_counters(server).cmd_set - before.cmd_set, 1001u);
    EXPECT_EQ(server.keys().size(), 1001u);
    EXPECT_EQ(json::parse(r.out)["prefill_sets"], 1001) << r.err;
}

TEST(AgentsEdges, RemoteAgentsReachingNoServerFailTheRun) {
    SshdServer a, b;
    const Controller controller({&a, &b});
    // A port nothing listens on: every connect is refused.
    json spec = cache_spec("127.0.0.1:" + std::to_string(test::free_port()), {agent(a), agent(b)});
    spec["cache"]["timeout_ms"] = 200;
    const auto r = controller.run(spec, {"--json"});
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["status"], "failed");
    EXPECT_NE(j["error"].get<std::string>().find("no operation reached a server"),
              std::string::npos)
        << j["error"];
    EXPECT_NE(j["error"].get<std::string>().find("agent root@127.0.0.1:"), std::string::npos)
        << j["error"];
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

json http_spec(const test::HttpTestServer& server, json agents) {
    return {{"name", "agents-secret"},
            {"kind", "http"},
            {"tick_ms", 500},
            {"phases", {{{"ops", 20}, {"concurrency", 2}}}},
            {"http",
             {{"targets",
               {{{"url", server.url("/")},
                 {"headers", {{"Authorization", "Bearer ${PERFLAB_AGENTS_TEST_TOKEN}"}}}}}}}},
            {"agents", std::move(agents)}};
}

TEST(AgentsEdges, UnsetVariableFailsTheRunBeforeAnyAgentIsReached) {
    test::HttpTestServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    unsetenv("PERFLAB_AGENTS_TEST_TOKEN");
    const auto r = controller.run(http_spec(server, {agent(a), agent(b)}));
    EXPECT_EQ(r.code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("environment variable PERFLAB_AGENTS_TEST_TOKEN is not set"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(server.requests(), 0u);
    for (const SshdServer* host : {&a, &b})
        EXPECT_EQ(test::read_file(host->dir().file("sshd.log")).find("Accepted publickey"),
                  std::string::npos)
            << "an agent was reached";
}

// The value is the controller's (sshd gives the agents no such variable), sent as it is:
// a "${" in it is no reference on the agent.
TEST(AgentsEdges, SecretsAreResolvedOnTheController) {
    test::HttpTestServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    const test::ScopedEnv token("PERFLAB_AGENTS_TEST_TOKEN", "t0k${HOME}$${x}");
    const auto r = controller.run(http_spec(server, {agent(a), agent(b)}), {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(server.requests(), 20u);
    for (const auto& request : server.received())
        EXPECT_NE(request.head.find("Authorization: Bearer t0k${HOME}$${x}\r\n"), std::string::npos)
            << request.head;
    EXPECT_EQ(r.out.find("t0k"), std::string::npos);
    EXPECT_EQ(r.err.find("t0k"), std::string::npos);
}

// Two agents share the file's first `ops` lines: each line once, `ops` in all.
TEST(AgentsEdges, ReplayWithOpsSendsEachLineOnce) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    std::string lines;
    for (int i = 0; i < 3000; ++i)
        lines += "set replay_" + std::to_string(i) + " 16\n";
    controller.dir().write("ops.txt", lines);
    json spec = cache_spec(server.endpoint(), {agent(a), agent(b)});
    spec["phases"] = {{{"ops", 1000}, {"concurrency", 4}}};
    spec["cache"] = {{"servers", {server.endpoint()}},
                     {"replay", {{"file", controller.dir().file("ops.txt")}, {"speed", "max"}}}};
    const auto before = test::cache_counters(server);
    const auto r = controller.run(spec, {"--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(test::cache_counters(server).cmd_set - before.cmd_set, 1000u);
    std::set<std::string> expected;
    for (int i = 0; i < 1000; ++i)
        expected.insert("replay_" + std::to_string(i));
    EXPECT_EQ(server.keys(), expected);
    EXPECT_EQ(json::parse(r.out)["ops"]["set"]["count"], 1000);
}

// Under AddressSanitizer every process is several times larger (shadow memory, redzones) and
// keeps up to 256 MB of freed blocks in quarantine: the bound is the controller's cap, not
// the sanitizer's. Without a cap, the line's doublings alone would exceed either bound.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kRssLimitMb = 3 * 100 + 256;
#else
constexpr double kRssLimitMb = 100;
#endif

// 100 MB without a newline: the controller holds at most its cap of it, fails the agent
// naming its host, and the run goes on with the other.
TEST(AgentsEdges, EndlessLineFailsTheAgentNotTheController) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    const std::string flood = faulty_agent(controller, "flood",
                                           "        for _ in range(100):\n"
                                           "            out.write(b'x' * (1 << 20))\n");
    const auto r =
        controller.run(cache_spec(server.endpoint(), {agent(a), agent(b, flood)}, 4), {"--json"});
    EXPECT_LT(children_max_rss_mb(), kRssLimitMb);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("agent " + b.target() +
                         " lost: protocol error: a line over 16 MiB without a newline"),
              std::string::npos)
        << r.err.substr(0, 4000);
    EXPECT_GT(json::parse(r.out)["ops"]["get"]["count"].get<uint64_t>(), 0u);
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

TEST(AgentsEdges, GarbageBetweenRecordsFailsTheAgent) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    const std::string garbage =
        faulty_agent(controller, "garbage", "        out.write(b'garbage\\n')\n");
    const auto r =
        controller.run(cache_spec(server.endpoint(), {agent(a), agent(b, garbage)}, 3), {"--json"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(
        r.err.find("agent " + b.target() + " lost: protocol error: not a record: \"garbage\""),
        std::string::npos)
        << r.err;
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

// Its stderr is its log, never a record: shown when the agent fails.
TEST(AgentsEdges, AgentLogIsShownWithItsFailure) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    const std::string noisy = script(controller, "noisy",
                                     "#!/bin/sh\n"
                                     "echo 'noisy: cannot find libfoo.so' >&2\n"
                                     "exit 3\n");
    const auto r = controller.run(cache_spec(server.endpoint(), {agent(a), agent(b, noisy)}));
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("agent " + b.target() + ": `'" + noisy + "' agent`: "), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("its log ends: noisy: cannot find libfoo.so"), std::string::npos) << r.err;
    EXPECT_EQ(server.stat("cmd_get") + server.stat("cmd_set"), 0u) << "load was sent";
}

// An agent that cannot read the replay file at the spec's path (here: one running as nobody,
// the file its owner's alone) stops the run before any load, naming its host and why.
TEST(AgentsEdges, AgentThatCannotBuildItsEngineStopsTheRunBeforeItStarts) {
    MemcachedServer server;
    SshdServer a, b;
    const Controller controller({&a, &b});
    controller.dir().write("ops.txt", "set k 16\nget k\n");
    std::filesystem::permissions(controller.dir().file("ops.txt"),
                                 std::filesystem::perms::owner_read);
    const std::string as_nobody =
        script(controller, "as_nobody",
               "#!/bin/sh\nexec setpriv --reuid=65534 --regid=65534 --clear-groups " PERFLAB_BINARY
               " \"$@\"\n");
    json spec = cache_spec(server.endpoint(), {agent(a), agent(b, as_nobody)});
    spec["cache"] = {{"servers", {server.endpoint()}},
                     {"replay", {{"file", controller.dir().file("ops.txt")}}}};
    const auto r = controller.run(spec);
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("agent " + b.target() + ": cannot run its share: cache.replay.file"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(server.stat("cmd_get") + server.stat("cmd_set"), 0u) << "load was sent";
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

}  // namespace
}  // namespace perflab
