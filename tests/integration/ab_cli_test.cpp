// SPDX-License-Identifier: MIT
// `perflab ab A.json B.json --repeat N` as a user runs it: the real binary against nginx and
// our test server on loopback. Runs go A B B A A B (each a process of its own), are tagged as
// one experiment and compared as two series.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "http_run_helpers.h"
#include "http_test_server.h"
#include "nginx_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

class AbCli : public ::testing::Test {
  protected:
    // 8 ticks of 250 ms at 200 requests/s.
    std::string spec_file(const std::string& file, const std::string& url) {
        auto spec = http_spec(url, {{{"rate", 200}, {"duration_s", 2}}});
        spec["tick_ms"] = 250;
        spec["name"] = file;
        dir_.write(file, spec.dump());
        return dir_.file(file);
    }
    Output ab(const std::string& a, const std::string& b, std::vector<std::string> more) {
        std::vector<std::string> args = {PERFLAB_BINARY, "ab", a, b, "--db", db_};
        args.insert(args.end(), more.begin(), more.end());
        return run(args, 120);
    }
    // The ids of the runs tagged `tag`, oldest first.
    std::vector<int64_t> tagged(const std::string& tag) {
        const auto out = run({PERFLAB_BINARY, "runs", "--tag", tag, "--json", "--db", db_});
        EXPECT_EQ(out.code, 0) << out.err;
        std::vector<int64_t> ids;
        for (const auto& r : json::parse(out.out, nullptr, false))
            ids.push_back(r["id"].get<int64_t>());
        std::sort(ids.begin(), ids.end());
        return ids;
    }

    TempDir dir_;
    std::string db_ = dir_.file("runs.db");
};

TEST_F(AbCli, OneNginxSpecTwiceIsTheSameAndPassesTheCheck) {
    NginxServer nginx;
    const std::string a = spec_file("a.json", nginx.url("/ok"));
    const std::string b = spec_file("b.json", nginx.url("/ok"));
    const auto out = ab(a, b, {"--repeat", "3", "--check", "--json"});
    const json c = json::parse(out.out, nullptr, false);
    ASSERT_TRUE(c.is_object()) << out.out;
    EXPECT_EQ(c["scope"], "between-runs");
    for (const char* figure : {"throughput", "p50_us"})
        EXPECT_EQ(c["figures"][figure]["verdict"][1], "same") << figure << ": " << c.dump();
    // A 130 µs server's p99 is the machine's: in one run of the suite the A runs met a busy
    // moment the B runs did not (p99 3.4 ms against 0.46 ms), a real difference between those
    // runs. Its verdict is its interval's (5%: the default threshold).
    const json& p99 = c["figures"]["p99_us"];
    ASSERT_TRUE(p99["ci_pct"][1].is_array()) << p99.dump();
    const double lo = p99["ci_pct"][1][0].get<double>(), hi = p99["ci_pct"][1][1].get<double>();
    const bool told = !(lo <= 0 && hi >= 0) && std::abs(p99["delta_pct"][1].get<double>()) >= 5;
    EXPECT_EQ(p99["verdict"][1] != "same", told) << p99.dump();
    // --check fails only on a figure that is worse.
    EXPECT_EQ(out.code, p99["verdict"][1] == "worse" ? 3 : 0) << out.out << out.err;
    EXPECT_EQ(nginx.requests(), 6u * 400u);

    // Interleaved A B B A A B, each side a series of three tagged as one experiment.
    const auto experiment = out.err.substr(out.err.find("ab-"), 19);
    const auto as = tagged(experiment + "-A"), bs = tagged(experiment + "-B");
    EXPECT_EQ(tagged(experiment).size(), 6u);
    ASSERT_EQ(as.size(), 3u);
    ASSERT_EQ(bs.size(), 3u);
    EXPECT_EQ(as, (std::vector<int64_t>{bs[0] - 1, bs[1] + 1, bs[2] - 1}));
    EXPECT_EQ(c["sides"][0].size(), 3u) << c["sides"].dump();
    EXPECT_EQ(c["sides"][1].size(), 3u) << c["sides"].dump();
}

// 20 ms, far above what a busy machine adds: with 2 ms, one run of the fast server beside
// another test had its median near 2 ms, and three runs a side then left the difference
// inside its interval (p50 141 against 2213 µs judged "same").
TEST_F(AbCli, AServerTwentyMillisecondsSlowerIsWorseAndFailsTheCheck) {
    HttpTestServer fast, slow;
    slow.set_delay_ms(20);
    const auto out =
        ab(spec_file("fast.json", fast.url("/")), spec_file("slow.json", slow.url("/")),
           {"--repeat", "3", "--check", "--json"});
    EXPECT_EQ(out.code, 3) << out.out << out.err;
    EXPECT_NE(out.err.find("check: worse: "), std::string::npos) << out.err;
    EXPECT_EQ(fast.requests(), 3u * 400u);
    EXPECT_EQ(slow.requests(), 3u * 400u);
    const json c = json::parse(out.out, nullptr, false);
    ASSERT_TRUE(c.is_object()) << out.out;
    EXPECT_EQ(c["figures"]["p50_us"]["verdict"][1], "worse") << c.dump();
}

TEST_F(AbCli, AMissingOrInvalidSpecIsBadInputAndRunsNothing) {
    HttpTestServer server;
    const std::string good = spec_file("good.json", server.url("/"));
    const auto missing = ab(good, dir_.file("nowhere.json"), {});
    EXPECT_EQ(missing.code, 2);
    EXPECT_NE(missing.err.find("nowhere.json"), std::string::npos) << missing.err;
    dir_.write("bad.json", R"({"kind": "http", "phases": [{"rate": -1, "duration_s": 1}]})");
    const auto bad = ab(dir_.file("bad.json"), good, {});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("bad.json"), std::string::npos) << bad.err;
    EXPECT_EQ(server.requests(), 0u);
}

}  // namespace
}  // namespace perflab::test
