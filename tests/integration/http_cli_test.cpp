// SPDX-License-Identifier: MIT
// `perflab run` with http specs: bad input exits 2 naming the field; reports in text and JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "http_run_helpers.h"
#include "nginx_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

Output perflab_run(const TempDir& dir, const json& spec, std::vector<std::string> flags = {}) {
    dir.write("spec.json", spec.dump());
    std::vector<std::string> argv = {PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return run(argv, 60);
}

const json kRate = {{{"rate", 10}, {"duration_s", 1}}};

TEST(HttpCli, MalformedUrlNamesTheField) {
    expect_bad_input(http_spec("http://127.0.0.1:99999/", kRate), "http.targets[0].url");
    expect_bad_input(http_spec("http:///nohost", kRate), "http.targets[0].url");
}

TEST(HttpCli, UnsupportedSchemeNamesTheField) {
    expect_bad_input(http_spec("ftp://127.0.0.1/", kRate), "http.targets[0].url");
}

TEST(HttpCli, Http2MaxStreamsOutOfRangeNamesTheField) {
    json spec = http_spec("https://127.0.0.1/", kRate);
    spec["http"]["http2"] = true;
    spec["http"]["max_streams"] = 0;
    expect_bad_input(spec, "http.max_streams");
}

TEST(HttpCli, MissingTargetNamesTheField) {
    json spec = http_spec("http://127.0.0.1/", kRate);
    spec["http"]["targets"] = json::array();
    expect_bad_input(spec, "http.targets");
    spec["http"]["targets"] = {{{"method", "GET"}}};
    expect_bad_input(spec, "http.targets[0].url");
}

TEST(HttpCli, NegativeRateNamesTheField) {
    expect_bad_input(http_spec("http://127.0.0.1/", {{{"rate", -5}, {"duration_s", 1}}}),
                     "phases[0].rate");
}

TEST(HttpCli, JsonReportAgainstNginx) {
    NginxServer nginx;
    TempDir dir;
    const Output out =
        perflab_run(dir, http_spec(nginx.url("/static.bin"), kRate), {"--json", "-q"});
    ASSERT_EQ(out.code, 0) << out.err;
    const json report = json::parse(out.out);
    for (const char* key :
         {"requests", "rate", "throughput", "duration_s", "attack_s", "wait_s", "latency_us",
          "bytes_in", "bytes_out", "success", "status_codes", "errors", "late_sends", "phases"})
        EXPECT_TRUE(report.contains(key)) << key;
    EXPECT_EQ(report["requests"], 10);
    EXPECT_EQ(report["status_codes"]["200"], 10);
    EXPECT_EQ(report["success"], 1.0);
    EXPECT_EQ(report["bytes_in"]["mean"], double(NginxServer::kStaticBytes));
    EXPECT_GE(report["wait_s"].get<double>(), 0.0);
    EXPECT_EQ(report["phases"].size(), 1u);
    EXPECT_EQ(nginx.wait_for_requests(10), 10u);
}

TEST(HttpCli, TextReportAgainstNginx) {
    NginxServer nginx;
    TempDir dir;
    const Output out = perflab_run(dir, http_spec(nginx.url("/ok"), kRate), {"-q"});
    ASSERT_EQ(out.code, 0) << out.err;
    for (const char* line :
         {"Requests      [total, rate, throughput]         10, ",
          "Duration      [total, attack, wait]", "Latencies     [min, mean, 50, 90, 95, 99, max]",
          "Bytes In      [total, mean]", "Success       [ratio]                           100.00%",
          "Status Codes  [code:count]                      200:10", "Error Set:"})
        EXPECT_NE(out.out.find(line), std::string::npos) << line << "\n" << out.out;
}

// Nothing listens on the port: after three connect timeouts the run stops, failed, naming the
// error, instead of spending its 60 s phase. With "wait_for_server" it goes on to its end.
TEST(HttpCli, AnUnreachableServerStopsTheRunAfterThreeConnectTimeouts) {
    TempDir dir;
    const std::string url = "http://127.0.0.1:" + std::to_string(free_port()) + "/";
    json spec = http_spec(url, {{{"duration_s", 60}, {"rate", 20}}}, {{"connect_timeout_ms", 200}});
    spec["tick_ms"] = 100;
    const Output out = perflab_run(dir, spec, {"--json"});  // events on stderr
    EXPECT_EQ(out.code, 1) << out.err;
    EXPECT_NE(out.err.find("no server answered in the run's first "), std::string::npos) << out.err;
    EXPECT_NE(out.err.find("\"wait_for_server\": true"), std::string::npos) << out.err;
    const json report = json::parse(out.out);
    EXPECT_EQ(report["status"], "failed");
    // Stopped at the fourth tick or so, not at the phase's end: far fewer than its 1200 sends.
    EXPECT_LT(report["requests"].get<uint64_t>() + report["dropped"].get<uint64_t>(), 1200u);

    spec["phases"] = {{{"duration_s", 1}, {"rate", 20}}};
    spec["wait_for_server"] = true;
    const Output waited = perflab_run(dir, spec, {"--json"});
    EXPECT_EQ(waited.code, 1) << waited.err;
    EXPECT_EQ(waited.err.find("no server answered in the run's first "), std::string::npos)
        << waited.err;
    EXPECT_EQ(json::parse(waited.out)["requests"].get<uint64_t>() +
                  json::parse(waited.out)["dropped"].get<uint64_t>(),
              20u);
}

}  // namespace
}  // namespace perflab::test
