// SPDX-License-Identifier: MIT
// Response checks: each kind fails on its own bit, and a check reads only what it needs.
#include "http/response_check.h"

#include <gtest/gtest.h>

namespace perflab {
namespace {

unsigned bit(CheckKind k) {
    return 1u << unsigned(k);
}

TEST(ResponseCheck, StatusList) {
    HttpExpect e;
    e.status = {200, 201};
    const ResponseCheck c(e);
    EXPECT_TRUE(c.judges_status());
    EXPECT_FALSE(c.needs_body());
    EXPECT_EQ(c.failures(201, "", 0), 0u);
    EXPECT_EQ(c.failures(204, "", 0), bit(CheckKind::status));
}

TEST(ResponseCheck, BodyContainsAndRegex) {
    HttpExpect e;
    e.body_contains = "\"ok\"";
    e.body_regex = "id=[0-9]+;";
    const ResponseCheck c(e);
    EXPECT_TRUE(c.needs_body());
    EXPECT_FALSE(c.judges_status());
    EXPECT_EQ(c.failures(200, "\"ok\" id=42;", 11), 0u);
    EXPECT_EQ(c.failures(200, "\"ok\" id=x;", 10), bit(CheckKind::body_regex));
    EXPECT_EQ(c.failures(200, "nope", 4),
              bit(CheckKind::body_contains) | bit(CheckKind::body_regex));
}

TEST(ResponseCheck, JsonPathAndValue) {
    HttpExpect e;
    e.json_path = "$.data.items[1].ok";
    e.json_equals = "true";
    const ResponseCheck c(e);
    EXPECT_EQ(c.failures(200, R"({"data": {"items": [{}, {"ok": true}]}})", 0), 0u);
    EXPECT_EQ(c.failures(200, R"({"data": {"items": [{}, {"ok": 1}]}})", 0), bit(CheckKind::json));
    EXPECT_EQ(c.failures(200, R"({"data": {"items": []}})", 0), bit(CheckKind::json));
    EXPECT_EQ(c.failures(200, "not json", 0), bit(CheckKind::json));
    HttpExpect present;
    present.json_path = "$['a key']";
    EXPECT_EQ(ResponseCheck(present).failures(200, R"({"a key": null})", 0), 0u);
}

TEST(ResponseCheck, MaxBytesCountsWithoutTheBody) {
    HttpExpect e;
    e.max_bytes = 10;
    const ResponseCheck c(e);
    EXPECT_FALSE(c.needs_body());
    EXPECT_EQ(c.failures(200, "", 10), 0u);
    EXPECT_EQ(c.failures(200, "", 11), bit(CheckKind::max_bytes));
}

TEST(HttpStatsChecks, AFailedCheckIsAnErrorCountedApart) {
    HttpStats s(1);
    s.response(0, 200, 100, -1, 2);
    s.response(0, 200, 100, -1, 2, bit(CheckKind::body_contains) | bit(CheckKind::json));
    s.response(0, 404, 100, -1, 2, 0, true);  // "expect": {"status": [404]} was met
    s.response(0, 500, 100, -1, 2);
    IntervalSample out;
    s.add_to(out, {"GET /"}, Clock::now());
    const OpSample& op = out.ops.at("GET /");
    EXPECT_EQ(op.count, 4u);
    EXPECT_EQ(op.errors, 2u);  // the failed checks and the 500
    EXPECT_EQ(op.check_failures, 1u);
    EXPECT_EQ(op.checks_failed,
              (std::map<std::string, uint64_t>{{"body_contains", 1}, {"json", 1}}));
    EXPECT_TRUE(out.errors.empty());  // no transport error
}

}  // namespace
}  // namespace perflab
