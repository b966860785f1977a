// SPDX-License-Identifier: MIT
// A phase's own workload travels with each agent's share: in the share itself and through the
// JSON an agent is sent (agent_link.cpp's "assign"), which it parses back.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "agent_share.h"

namespace perflab {
namespace {

TEST(AgentShareLoad, EachSharesPhasesKeepTheirWorkload) {
    const auto parsed = parse_spec(nlohmann::json::parse(R"({
      "kind": "cache", "seed": 7,
      "phases": [{"duration_s": 5, "concurrency": 4},
                 {"duration_s": 5, "concurrency": 4, "workload": "get-only",
                  "keys": {"count": 10000000000}, "value_size": {"min": 8, "max": 8}}],
      "cache": {"servers": ["127.0.0.1:11211"], "keys": {"count": 100}},
      "agents": [{"host": "a@127.0.0.1"}, {"host": "b@127.0.0.1"}]})"));
    ASSERT_TRUE(parsed) << parsed.error_text();
    const RunSpec& spec = *parsed.spec;
    for (int k = 0; k < 2; ++k) {
        const RunSpec share = agent_share(spec, k, 2);
        const auto sent = parse_spec(to_json(share));
        ASSERT_TRUE(sent) << sent.error_text();
        EXPECT_FALSE(sent.spec->phases[0].cache);
        ASSERT_TRUE(sent.spec->phases[1].cache);
        EXPECT_EQ(*sent.spec->phases[1].cache, *spec.phases[1].cache);
        EXPECT_EQ(sent.spec->phases[1].cache->keys.count, 10'000'000'000u);
        EXPECT_EQ(sent.spec->phases[1].concurrency, 2);
    }
}

}  // namespace
}  // namespace perflab
