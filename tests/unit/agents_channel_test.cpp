// SPDX-License-Identifier: MIT
// The controller's side of the agents' channel: lines under a cap, secrets resolved once, the
// counts an agent may send, and a replay's lines shared over agents.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "agent_secrets.h"
#include "agent_share.h"
#include "agent_volume.h"
#include "line_buffer.h"

namespace perflab {
namespace {

TEST(LineBuffer, LinesComeWholeWhateverThePieces) {
    LineBuffer lines(64);
    std::vector<std::string> got;
    for (const std::string piece : {"ab", "c\nde", "f\n\ng", "hi\n"}) {
        lines.input() += piece;
        while (auto line = lines.next())
            got.push_back(*line);
    }
    EXPECT_EQ(got, (std::vector<std::string>{"abc", "def", "", "ghi"}));
    EXPECT_EQ(lines.pending(), 0u);
}

TEST(LineBuffer, ALineOverTheCapIsRefusedBeforeItIsWhole) {
    LineBuffer lines(size_t(1) << 20);
    lines.input() += "{\"type\":\"tick\"}\n";
    ASSERT_EQ(lines.next(), std::optional<std::string>("{\"type\":\"tick\"}"));
    const std::string piece(4096, 'x');
    size_t fed = 0;
    bool refused = false;
    while (!refused && fed < (size_t(4) << 20)) {
        lines.input() += piece;
        fed += piece.size();
        try {
            EXPECT_FALSE(lines.next());
        } catch (const LineTooLong&) {
            refused = true;
        }
    }
    EXPECT_TRUE(refused);
    // Refused as soon as the unfinished line passed 1 MiB, one piece later at most.
    EXPECT_GT(fed, size_t(1) << 20);
    EXPECT_LE(fed, (size_t(1) << 20) + piece.size());
}

TEST(LineBuffer, ManyLinesInOnePieceComeInOrder) {
    LineBuffer lines(16);
    for (int i = 0; i < 10000; ++i)
        lines.input() += std::to_string(i) + "\n";
    for (int i = 0; i < 10000; ++i)
        ASSERT_EQ(lines.next(), std::optional<std::string>(std::to_string(i)));
    EXPECT_FALSE(lines.next());
}

RunSpec http_spec(const std::string& header, const std::string& body) {
    const auto r = parse_spec(nlohmann::json{{"kind", "http"},
                                             {"phases", {{{"ops", 10}, {"concurrency", 2}}}},
                                             {"http",
                                              {{"targets",
                                                {{{"url", "http://127.0.0.1:1/"},
                                                  {"method", "POST"},
                                                  {"headers", {{"Authorization", header}}},
                                                  {"body", body}}}}}},
                                             {"agents", {{{"host", "a@a"}}, {{"host", "b@b"}}}}});
    EXPECT_TRUE(r) << r.error_text();
    return *r.spec;
}

// The agent resolves again what the controller sends (make_engine): in an environment where
// nothing is set it must give the controller's values back exactly.
TEST(AgentSecrets, ValuesAreTheControllersAndResolveToThemselvesOnTheAgent) {
    const std::map<std::string, std::string> home{{"TOKEN", "t${HOME}$${x}$"},
                                                  {"BODY", "{\"a\":\"${b}\"}"}};
    const Environment controller = [&](const std::string& name) -> std::optional<std::string> {
        const auto it = home.find(name);
        if (it == home.end()) return std::nullopt;
        return it->second;
    };
    const Environment agent = [](const std::string&) { return std::optional<std::string>(); };
    const SpecResult sent =
        spec_for_agents(http_spec("Bearer ${TOKEN}", "x $${literal} ${BODY}"), controller);
    ASSERT_TRUE(sent) << sent.error_text();
    const auto parsed_there = parse_spec(to_json(*sent.spec));
    ASSERT_TRUE(parsed_there) << parsed_there.error_text();
    const SpecResult there = resolve_references(*parsed_there.spec, agent);
    ASSERT_TRUE(there) << there.error_text();
    const HttpTarget& t = there.spec->http->targets[0];
    EXPECT_EQ(t.headers[0].second, "Bearer t${HOME}$${x}$");
    EXPECT_EQ(t.body, "x ${literal} {\"a\":\"${b}\"}");
}

TEST(AgentSecrets, AnUnsetVariableIsTheSpecsError) {
    const Environment none = [](const std::string&) { return std::optional<std::string>(); };
    const SpecResult r = spec_for_agents(http_spec("Bearer ${NOT_SET_HERE}", ""), none);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error_text().find(
                  "http.targets[0].headers.Authorization: environment variable NOT_SET_HERE "
                  "is not set"),
              std::string::npos)
        << r.error_text();
}

TEST(AgentVolume, CountsPastTheLimitAreRefusedAndLeaveTheVolume) {
    AgentVolume volume;
    IntervalSample tick;
    tick.ops["get"].count = AgentVolume::kMaxCounts / 2;
    volume.add(tick);
    IntervalSample big;
    big.ops["get"].count = AgentVolume::kMaxCounts / 2 + 1;
    EXPECT_THROW(volume.add(big), std::runtime_error);
    IntervalSample small;
    small.ops["get"].count = AgentVolume::kMaxCounts / 2;
    EXPECT_NO_THROW(volume.add(small));  // the refused tick added nothing
    IntervalSample one;
    one.hits = 1;
    EXPECT_THROW(volume.add(one), std::runtime_error);
    IntervalSample huge;
    huge.ops["get"].latency.record_n(Histogram::kHighest, uint64_t(1) << 30);
    AgentVolume fresh;
    EXPECT_THROW(fresh.add(huge), std::runtime_error);  // 2^30 hours of latency in µs
}

TEST(AgentShare, ReplayOpsAreNotSplit) {
    RunSpec spec = http_spec("x", "");
    spec.kind = RunKind::cache;
    spec.http.reset();
    spec.cache = CacheSpec{};
    spec.cache->replay = CacheReplay{};
    spec.phases[0].ops = 1000;
    spec.phases[0].concurrency = 4;
    for (int k = 0; k < 2; ++k) {
        const RunSpec share = agent_share(spec, k, 2);
        EXPECT_EQ(share.phases[0].ops, 1000u);
        EXPECT_EQ(share.phases[0].concurrency, 2);
    }
}

}  // namespace
}  // namespace perflab
