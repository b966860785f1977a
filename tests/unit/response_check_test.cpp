// SPDX-License-Identifier: MIT
// Response checks: each kind fails on its own bit, and a check reads only what it needs.
#include "http/response_check.h"

#include <gtest/gtest.h>

namespace perflab {
namespace {

unsigned bit(CheckKind k) {
    return 1u << unsigned(k);
}

// The checks `body` fails, fed to the reader in chunks of `chunk` bytes as reads bring it.
unsigned failures(const ResponseCheck& c, int status, std::string_view body, size_t chunk = 3) {
    BodyReader reader;
    reader.start(&c);
    for (size_t at = 0; at < body.size(); at += chunk)
        if (reader.active()) reader.feed(body.substr(at, chunk));
    return c.failures(status, reader, body.size());
}

TEST(ResponseCheck, StatusList) {
    HttpExpect e;
    e.status = {200, 201};
    const ResponseCheck c(e);
    EXPECT_TRUE(c.judges_status());
    EXPECT_FALSE(c.reads_body());
    EXPECT_EQ(failures(c, 201, ""), 0u);
    EXPECT_EQ(failures(c, 204, ""), bit(CheckKind::status));
}

TEST(ResponseCheck, BodyContainsAndRegex) {
    HttpExpect e;
    e.body_contains = "\"ok\"";
    e.body_regex = "id=[0-9]+;";
    const ResponseCheck c(e);
    EXPECT_TRUE(c.keeps_body());
    EXPECT_FALSE(c.judges_status());
    EXPECT_EQ(failures(c, 200, "\"ok\" id=42;"), 0u);
    EXPECT_EQ(failures(c, 200, "\"ok\" id=x;"), bit(CheckKind::body_regex));
    EXPECT_EQ(failures(c, 200, "nope"), bit(CheckKind::body_contains) | bit(CheckKind::body_regex));
}

// Alone, body_contains keeps no more than its text's length of the body, across reads.
TEST(ResponseCheck, BodyContainsAloneKeepsAWindow) {
    HttpExpect e;
    e.body_contains = "needle";
    const ResponseCheck c(e);
    EXPECT_TRUE(c.reads_body());
    EXPECT_FALSE(c.keeps_body());
    const std::string hay(1000, 'x');
    for (const size_t chunk : {1, 2, 5, 7, 64, 4096}) {
        EXPECT_EQ(failures(c, 200, hay + "needle" + hay, chunk), 0u) << chunk;
        EXPECT_EQ(failures(c, 200, hay + "needl" + hay + "e", chunk), bit(CheckKind::body_contains))
            << chunk;
    }
    BodyReader reader;
    reader.start(&c);
    for (int i = 0; i < 100; ++i)
        reader.feed(hay);
    EXPECT_LE(reader.body().size(), 5u);
    reader.feed("n");
    reader.feed("eedle");
    reader.feed(hay);  // found before: nothing more is kept
    EXPECT_TRUE(reader.body().empty());
    EXPECT_TRUE(reader.contains());
    reader.start(&c);
    reader.feed("xxneed");
    reader.feed("le");
    EXPECT_TRUE(reader.contains());
}

TEST(ResponseCheck, JsonPathAndValue) {
    HttpExpect e;
    e.json_path = "$.data.items[1].ok";
    e.json_equals = "true";
    const ResponseCheck c(e);
    EXPECT_EQ(failures(c, 200, R"({"data": {"items": [{}, {"ok": true}]}})"), 0u);
    EXPECT_EQ(failures(c, 200, R"({"data": {"items": [{}, {"ok": 1}]}})"), bit(CheckKind::json));
    EXPECT_EQ(failures(c, 200, R"({"data": {"items": []}})"), bit(CheckKind::json));
    EXPECT_EQ(failures(c, 200, "not json"), bit(CheckKind::json));
    HttpExpect present;
    present.json_path = "$['a key']";
    EXPECT_EQ(failures(ResponseCheck(present), 200, R"({"a key": null})"), 0u);
}

TEST(ResponseCheck, MaxBytesCountsWithoutTheBody) {
    HttpExpect e;
    e.max_bytes = 10;
    const ResponseCheck c(e);
    EXPECT_FALSE(c.reads_body());
    EXPECT_EQ(failures(c, 200, "0123456789"), 0u);
    EXPECT_EQ(failures(c, 200, "0123456789A"), bit(CheckKind::max_bytes));
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
