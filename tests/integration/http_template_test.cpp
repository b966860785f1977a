// SPDX-License-Identifier: MIT
// Templated requests and response checks through the perflab binary, against a test server
// that records every request it read: each variable rendered as specified, CSV rows in order,
// the spec stored with its templates (never an {{env}} value), failed checks counted apart
// from transport errors and status codes, and bad templates refused naming the field.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "http_run_helpers.h"
#include "http_test_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

const std::string kUsers = std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/http/users.csv";
// The fixture's rows, as a reader of the file sees them.
const std::vector<std::string> kNames = {"ada", "brian", "carla", "dmitri"};
const std::vector<std::string> kCities = {"London", "New York", "Lima", "Kyiv"};

int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A header's value in a request head ("" when absent).
std::string header(const std::string& head, const std::string& name) {
    const std::string key = "\r\n" + name + ": ";
    const size_t at = head.find(key);
    if (at == std::string::npos) return "";
    const size_t from = at + key.size();
    return head.substr(from, head.find("\r\n", from) - from);
}

// One connection sending `ops` requests in turn: the server sees them in order.
json one_by_one(int ops) {
    return {{{"ops", ops}, {"concurrency", 1}}};
}

class HttpTemplates : public ::testing::Test {
  protected:
    Output perflab(std::vector<std::string> args) const {
        args.insert(args.begin(), PERFLAB_BINARY);
        return run(args, 60);
    }
    Output run_spec(const json& spec, std::vector<std::string> flags) const {
        dir.write("spec.json", spec.dump());
        std::vector<std::string> args = {"run", dir.file("spec.json"), "--db", db, "-q"};
        args.insert(args.end(), flags.begin(), flags.end());
        return perflab(args);
    }

    HttpTestServer server;
    TempDir dir;
    std::string db = dir.file("runs.db");
};

TEST_F(HttpTemplates, EveryVariableRenderedAsSpecified) {
    const std::string token = "tok-" + std::to_string(now_ms());
    const ScopedEnv env("PERFLAB_TEMPLATE_TOKEN", token);
    json spec = http_spec(
        server.url("/item/{{seq}}?u={{uniform 5 9}}&z={{zipf 100 1.1}}&p={{pick red|green|blue}}"),
        one_by_one(12), {{"threads", 1}});
    auto& t = spec["http"]["targets"][0];
    t["method"] = "POST";
    t["headers"] = {{"X-Request-Id", "{{uuid}}"},
                    {"X-Sent-At", "{{now_ms}}"},
                    {"X-Token", "{{env PERFLAB_TEMPLATE_TOKEN}}"}};
    t["content_type"] = "application/json";
    t["body_template"] =
        "{\"user\": \"{{csv " + kUsers + " name}}\", \"city\": \"{{csv " + kUsers + " city}}\"}";
    const int64_t before = now_ms();
    const Output out = run_spec(spec, {});
    const int64_t after = now_ms();
    ASSERT_EQ(out.code, 0) << out.err;

    const auto received = server.received();
    ASSERT_EQ(received.size(), 12u);
    const std::regex line(R"(POST /item/(\d+)\?u=(\d+)&z=(\d+)&p=(\w+) HTTP/1\.1\r\n[\s\S]*)");
    const std::regex uuid("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    std::set<std::string> ids;
    for (size_t i = 0; i < received.size(); ++i) {
        const auto& r = received[i];
        std::smatch m;
        ASSERT_TRUE(std::regex_match(r.head, m, line)) << r.head;
        EXPECT_EQ(std::stoul(m[1]), i);
        EXPECT_GE(std::stoi(m[2]), 5);
        EXPECT_LE(std::stoi(m[2]), 9);
        EXPECT_GE(std::stoi(m[3]), 1);
        EXPECT_LE(std::stoi(m[3]), 100);
        EXPECT_TRUE(m[4] == "red" || m[4] == "green" || m[4] == "blue") << m[4];
        const std::string id = header(r.head, "X-Request-Id");
        EXPECT_TRUE(std::regex_match(id, uuid)) << id;
        ids.insert(id);
        const int64_t sent_at = std::stoll(header(r.head, "X-Sent-At"));
        EXPECT_GE(sent_at, before);
        EXPECT_LE(sent_at, after);
        EXPECT_EQ(header(r.head, "X-Token"), token);
        EXPECT_EQ(header(r.head, "Content-Type"), "application/json");
        // Each row in the file's order, both columns from the same row.
        EXPECT_EQ(r.body,
                  "{\"user\": \"" + kNames[i % 4] + "\", \"city\": \"" + kCities[i % 4] + "\"}");
        EXPECT_EQ(header(r.head, "Content-Length"), std::to_string(r.body.size()));
    }
    EXPECT_EQ(ids.size(), 12u);

    // The run is stored with its templates, never the environment's value.
    const Output show = perflab({"show", "1", "--db", db, "--json"});
    ASSERT_EQ(show.code, 0) << show.err;
    EXPECT_EQ(json::parse(show.out)["spec"]["http"]["targets"][0]["headers"]["X-Token"],
              "{{env PERFLAB_TEMPLATE_TOKEN}}");
    EXPECT_EQ(read_file(db).find(token), std::string::npos);
}

TEST_F(HttpTemplates, RandomCsvRowsKeepTheirColumnsTogether) {
    json spec = http_spec(server.url("/u/{{csv " + kUsers + " name random}}"), one_by_one(40),
                          {{"threads", 1}});
    spec["http"]["targets"][0]["headers"] = {{"X-City", "{{csv " + kUsers + " 2 random}}"}};
    ASSERT_EQ(run_spec(spec, {}).code, 0);
    std::set<std::string> names;
    for (const auto& r : server.received()) {
        const std::string name = r.head.substr(7, r.head.find(' ', 7) - 7);
        const auto row = std::find(kNames.begin(), kNames.end(), name);
        ASSERT_NE(row, kNames.end()) << r.head;
        EXPECT_EQ(header(r.head, "X-City"), kCities[size_t(row - kNames.begin())]);
        names.insert(name);
    }
    EXPECT_EQ(names.size(), 4u);
}

TEST_F(HttpTemplates, FailedChecksAreCountedApartFromErrors) {
    server.set_reply_body(R"({"ok": false, "token": "t1"})");
    json spec = http_spec(server.url("/a"), one_by_one(20), {{"threads", 1}});
    auto& targets = spec["http"]["targets"];
    targets[0]["expect"] = {{"body_contains", "\"ok\": true"}};
    targets.push_back({{"url", server.url("/b")},
                       {"expect",
                        {{"status", {200}},
                         {"json", {{"path", "$.token"}, {"equals", "t1"}}},
                         {"max_bytes", 100}}}});
    spec["slo"] = {{"check_failure_rate", 0.01}};
    const Output out = run_spec(spec, {"--json"});
    EXPECT_EQ(out.code, 3) << out.err;  // the slo failed
    EXPECT_NE(out.err.find("check failures ≤ 1% (run): 50%  FAIL"), std::string::npos) << out.err;
    const json report = json::parse(out.out);
    EXPECT_EQ(report["requests"], 20);
    EXPECT_EQ(report["errors"], json::object());  // no transport error
    EXPECT_EQ(report["status_codes"], (json{{"200", 20}}));
    EXPECT_EQ(report["check_failures"], 10);
    EXPECT_EQ(report["checks_failed"], (json{{"body_contains", 10}}));
    EXPECT_EQ(report["success"], 0.5);
    const std::string a = "GET " + server.url("/a"), b = "GET " + server.url("/b");
    EXPECT_EQ(report["ops"][a]["check_failures"], 10);
    EXPECT_EQ(report["ops"][a]["errors"], 10);
    EXPECT_EQ(report["ops"][b]["check_failures"], 0);
    EXPECT_EQ(report["ops"][b]["errors"], 0);

    // `show` recomputes the same figures from the stored ticks.
    const Output show = perflab({"show", "1", "--db", db, "--json"});
    ASSERT_EQ(show.code, 0) << show.err;
    const json shown = json::parse(show.out)["summary"];
    EXPECT_EQ(shown["checks_failed"], report["checks_failed"]);
    EXPECT_EQ(shown["ops"][a]["checks_failed"], report["ops"][a]["checks_failed"]);
    EXPECT_EQ(shown["success"], 0.5);
    const Output text = perflab({"show", "1", "--db", db});
    EXPECT_NE(text.out.find("Checks Failed [requests, check:count]           10, body_contains:10"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("  " + a + "  body_contains:10"), std::string::npos) << text.out;
    // The report's per-target table has a column for them.
    const Output md = perflab({"export", "1", "--db", db, "--format", "md"});
    ASSERT_EQ(md.code, 0) << md.err;
    EXPECT_NE(md.out.find("| checks failed |"), std::string::npos) << md.out;
    EXPECT_NE(md.out.find("| 10 (body_contains 10) |"), std::string::npos) << md.out;
    EXPECT_NE(md.out.find("| 0 |"), std::string::npos) << md.out;
}

TEST(HttpTemplateCli, BadTemplatesNameTheField) {
    const json rate = {{{"rate", 10}, {"duration_s", 1}}};
    expect_bad_input(http_spec("http://127.0.0.1:9/{{foo}}", rate),
                     "http.targets[0].url: unknown template \"foo\"");
    json spec = http_spec("http://127.0.0.1:9/", rate);
    spec["http"]["targets"][0]["body_template"] = "{{csv /no/such/file.csv name}}";
    expect_bad_input(spec,
                     "http.targets[0].body_template: cannot read CSV file \"/no/such/file.csv\"");
    spec["http"]["targets"][0]["body_template"] = "{{csv " + kUsers + " age}}";
    expect_bad_input(
        spec, "http.targets[0].body_template: CSV file \"" + kUsers + "\" has no column \"age\"");
    expect_bad_input(http_spec("http://127.0.0.1:9/?t={{env PERFLAB_NOT_SET_18}}", rate),
                     "http.targets[0].url: environment variable PERFLAB_NOT_SET_18 is not set");
    spec = http_spec("http://127.0.0.1:9/", rate);
    spec["http"]["targets"][0]["expect"] = {{"json", {{"path", "ok"}}}};
    expect_bad_input(spec, "http.targets[0].expect.json.path: a JSON path starts with \"$\"");
}

}  // namespace
}  // namespace perflab::test
