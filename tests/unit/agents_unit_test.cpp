// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "agent_protocol.h"
#include "agent_share.h"
#include "phase_board.h"

namespace perflab {
namespace {

using nlohmann::json;

json spec_with(json agents) {
    return {{"kind", "cache"},
            {"phases", {{{"duration_s", 1}, {"concurrency", 3}}}},
            {"cache", {{"servers", {"127.0.0.1:11211"}}}},
            {"agents", std::move(agents)}};
}

TEST(AgentSpecs, ParseAndRoundTrip) {
    auto j = spec_with(
        {{{"host", "me@a:2222"}, {"key", "k"}, {"perflab", "/opt/perflab"}}, {{"local", true}}});
    j["on_agent_loss"] = "stop";
    const auto r = parse_spec(j);
    ASSERT_TRUE(r) << r.error_text();
    ASSERT_EQ(r.spec->agents.size(), 2u);
    EXPECT_EQ(r.spec->agents[0].host, "me@a:2222");
    EXPECT_EQ(r.spec->agents[0].key, "k");
    EXPECT_EQ(r.spec->agents[0].program, "/opt/perflab");
    EXPECT_TRUE(r.spec->agents[1].local);
    EXPECT_EQ(r.spec->on_agent_loss, AgentLoss::stop);
    const auto again = parse_spec(to_json(*r.spec));
    ASSERT_TRUE(again) << again.error_text();
    EXPECT_EQ(again.spec->agents[0].program, "/opt/perflab");
    EXPECT_EQ(again.spec->on_agent_loss, AgentLoss::stop);
}

TEST(AgentSpecs, ErrorsNameTheField) {
    auto expect_error = [](const json& j, const std::string& text) {
        const auto r = parse_spec(j);
        EXPECT_FALSE(r);
        EXPECT_NE(r.error_text().find(text), std::string::npos) << r.error_text();
    };
    expect_error(spec_with({{{"host", "nouser"}}}),
                 "agents[0].host: expected \"user@host[:port]\"");
    expect_error(spec_with({{{"host", "me@a"}, {"local", true}}}), "agents[0]: needs exactly one");
    expect_error(spec_with({{{"host", "me@a"}, {"port", 1}}}), "agents[0]");
    expect_error(spec_with(json::array()), "agents: expected a non-empty array");
    expect_error(
        spec_with({{{"host", "a@a"}}, {{"host", "b@b"}}, {{"host", "c@c"}}, {{"host", "d@d"}}}),
        "phases[0].concurrency: fewer connections than agents (4)");
    auto j = spec_with({{{"host", "a@a"}}, {{"host", "b@b"}}});
    j["phases"] = {{{"ops", 1}, {"concurrency", 2}}};
    expect_error(j, "phases[0].ops: fewer ops than agents (2)");
    j = spec_with({{{"host", "a@a"}}});
    j.erase("agents");
    j["on_agent_loss"] = "stop";
    expect_error(j, "on_agent_loss: needs \"agents\"");
    j = spec_with({{{"host", "a@a"}}});
    j["on_agent_loss"] = "panic";
    expect_error(j, "on_agent_loss");
}

TEST(AgentShare, ClosedModelSplitsConnectionsAndOps) {
    auto j = spec_with({{{"host", "a@a"}}, {{"host", "b@b"}}});
    j["phases"] = {{{"duration_s", 1}, {"concurrency", 5}}, {{"ops", 7}, {"concurrency", 2}}};
    const RunSpec spec = *parse_spec(j).spec;
    const RunSpec first = agent_share(spec, 0, 2), second = agent_share(spec, 1, 2);
    EXPECT_EQ(first.phases[0].concurrency, 3);
    EXPECT_EQ(second.phases[0].concurrency, 2);
    EXPECT_EQ(first.phases[1].ops, 4u);
    EXPECT_EQ(second.phases[1].ops, 3u);
    EXPECT_TRUE(first.agents.empty());
}

// Two agents with 2 and 1 senders: every op of the run's schedule (100/s: op i due at
// i * 10 ms) sent once, at its own time.
TEST(AgentShare, OpenModelAgentsSendTheRunsOpsOnce) {
    Phase phase;
    phase.duration_s = 0.5;
    phase.rate = 100;
    const Clock::time_point start{};
    std::vector<int64_t> due_ms;
    for (int k = 0; k < 2; ++k) {
        const int senders = k == 0 ? 2 : 1;
        for (int w = 0; w < senders; ++w) {
            OpPacer pacer;
            pacer.reset(PhasePlan{0, phase, start, senders, k, 2}, w);
            for (; !pacer.exhausted(); pacer.advance())
                due_ms.push_back(
                    std::chrono::round<std::chrono::milliseconds>(pacer.due() - start).count());
        }
    }
    std::sort(due_ms.begin(), due_ms.end());
    std::vector<int64_t> planned;
    for (int64_t t = 0; t < 500; t += 10)
        planned.push_back(t);
    EXPECT_EQ(due_ms, planned);
}

TEST(AgentProtocol, TickRoundTripsWhole) {
    IntervalSample s;
    s.t_ms = 1500;
    s.interval_ms = 500;
    s.phase = 1;
    s.connections = 3;
    s.hits = 7;
    s.misses = 2;
    s.sent = 12;
    s.late = 1;
    s.dropped = 4;
    s.errors["timeout"] = 3;
    s.status_codes[503] = 2;
    s.moved = 5;
    s.nodes["127.0.0.1:7001"].calls["get"] = 6;
    s.nodes["127.0.0.1:7001"].moved = 5;
    s.nodes["[::1]:7002"].hits = 4;
    auto& get = s.ops["get"];
    get.count = 9;
    get.errors = 3;
    for (int64_t v : {100, 250, 4000, 120000})
        get.latency.record(v);
    const IntervalSample back = sample_from_json(json::parse(sample_json(s).dump()));
    EXPECT_EQ(back.t_ms, 1500);
    EXPECT_EQ(back.phase, 1);
    EXPECT_EQ(back.connections, 3);
    EXPECT_EQ(back.hits, 7u);
    EXPECT_EQ(back.dropped, 4u);
    EXPECT_EQ(back.errors.at("timeout"), 3u);
    EXPECT_EQ(back.status_codes.at(503), 2u);
    EXPECT_EQ(back.ops.at("get").count, 9u);
    EXPECT_EQ(back.ops.at("get").latency.count(), 4u);
    EXPECT_EQ(back.ops.at("get").latency.max(), get.latency.max());
    EXPECT_EQ(back.ops.at("get").latency.percentile(50), get.latency.percentile(50));
    EXPECT_EQ(back.moved, 5u);
    ASSERT_EQ(back.nodes.size(), 2u);
    EXPECT_EQ(back.nodes.at("127.0.0.1:7001").calls.at("get"), 6u);
    EXPECT_EQ(back.nodes.at("127.0.0.1:7001").moved, 5u);
    EXPECT_EQ(back.nodes.at("[::1]:7002").hits, 4u);
    EXPECT_THROW(sample_from_json(json{{"t_ms", 1}}), std::runtime_error);
}

// Found by tests/fuzz/agent_protocol: a number out of its field's range was converted anyway
// (undefined for a double), and a status code that is no number threw std::invalid_argument.
TEST(AgentProtocol, MalformedNumbersAreMalformedTicks) {
    IntervalSample s;
    s.ops["get"].latency.record(100);
    const json good = sample_json(s);
    for (const auto& [key, value] : {std::pair<const char*, json>{"connections", 4e104},
                                     {"phase", int64_t{1} << 40},
                                     {"hits", -1},
                                     {"t_ms", 1.5},
                                     {"status_codes", {{"abc", 1}}},
                                     {"errors", {{"timeout", 1e30}}}}) {
        json bad = good;
        bad[key] = value;
        EXPECT_THROW(sample_from_json(bad), std::runtime_error) << key;
    }
    json bad = good;
    bad["ops"]["get"]["check_failures"] = -2;
    EXPECT_THROW(sample_from_json(bad), std::runtime_error);
    bad = good;
    bad["nodes"] = {{"127.0.0.1:7001", {{"calls", {{"get", -1}}}}}};
    EXPECT_THROW(sample_from_json(bad), std::runtime_error);
}

}  // namespace
}  // namespace perflab
