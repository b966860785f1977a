// SPDX-License-Identifier: MIT
// The max-rate search from two agent hosts (two real sshd on loopback) against nginx limited
// to 400 r/s: the controller judges each step from the agents' merged figures and orders the
// next step's rate; the answer is the one one machine finds (search_cli_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "agent_helpers.h"
#include "nginx_server.h"
#include "process.h"
#include "sshd_server.h"

namespace perflab {
namespace {

using nlohmann::json;
using test::agent;
using test::Controller;
using test::NginxServer;
using test::no_agent_left;
using test::SshdServer;
using test::sum_counts;

TEST(AgentsSearch, FindsTheRateLimitOfNginxFromTwoHosts) {
    NginxServer nginx;
    SshdServer a, b;
    const Controller controller({&a, &b});
    const json spec = {
        {"name", "search from two hosts"},
        {"kind", "http"},
        {"tick_ms", 250},
        {"http", {{"targets", {{{"url", nginx.url("/limited.bin")}}}}, {"threads", 2}}},
        {"slo", {{"latency_ms", {{"p99", 100}}}, {"error_rate", 0.01}, {"window_s", 2}}},
        {"search",
         {{"rate_from", 100},
          {"rate_to", 2000},
          {"step_s", 3},
          {"precision", 0.05},
          {"warmup_s", 1},
          {"concurrency", 64}}},
        {"agents", {agent(a), agent(b)}}};
    const auto r = test::run(controller.command(spec, {"--json"}), 300);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out, nullptr, false);
    ASSERT_TRUE(j.is_object() && j.contains("search")) << r.out;
    const json& search = j["search"];
    ASSERT_TRUE(search["max_rate"].is_number()) << search.dump(2);
    const double max_rate = search["max_rate"].get<double>();
    EXPECT_GE(max_rate, 320) << search.dump(2);
    EXPECT_LE(max_rate, 440) << search.dump(2);
    EXPECT_TRUE(search["finished"].get<bool>()) << search.dump(2);

    // The agents ran every step at the rate and for the time the controller ordered: a step
    // that passed sent or dropped every op of its 3 s at its rate, a confirmation hold of its
    // 9 s (the steps after the first are ordered, not known to the agents up front).
    int passed = 0;
    for (const auto& step : search["steps"]) {
        if (!step["passed"].get<bool>()) continue;
        ++passed;
        const auto phase = std::find_if(j["phases"].begin(), j["phases"].end(),
                                        [&](const json& p) { return p["phase"] == step["phase"]; });
        ASSERT_NE(phase, j["phases"].end()) << step.dump();
        EXPECT_NEAR(
            double((*phase)["requests"].get<uint64_t>() + (*phase)["dropped"].get<uint64_t>()),
            step["rate"].get<double>() * (step["confirm"].get<bool>() ? 9 : 3), 2)
            << step.dump() << phase->dump();
    }
    EXPECT_GE(passed, 3) << search.dump(2);

    // Every request counted once: nginx logged what the agents sent, each agent its half.
    const uint64_t requests = j["requests"].get<uint64_t>();
    EXPECT_EQ(nginx.wait_for_requests(requests), requests);
    ASSERT_EQ(j["agents"].size(), 2u);
    uint64_t agents_requests = 0;
    for (const auto& share : j["agents"]) {
        const uint64_t mine = sum_counts(share["ops"]);
        EXPECT_NEAR(double(mine), double(requests) / 2, double(requests) * 0.02) << share.dump();
        agents_requests += mine;
    }
    EXPECT_EQ(agents_requests, requests);
    EXPECT_TRUE(test::wait_until(no_agent_left));
}

TEST(AgentsSearch, FewerSearchConnectionsThanAgentsIsBadInput) {
    SshdServer a, b;
    const Controller controller({&a, &b});
    const json spec = {{"kind", "http"},
                       {"http", {{"targets", {{{"url", "http://127.0.0.1:1/"}}}}}},
                       {"slo", {{"error_rate", 0.01}}},
                       {"search", {{"rate_from", 100}, {"rate_to", 200}, {"concurrency", 1}}},
                       {"agents", {agent(a), agent(b)}}};
    const auto r = controller.run(spec);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("search.concurrency"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace perflab
