// SPDX-License-Identifier: MIT
// `perflab run` as a user runs it: the real binary, a real memcached.
#include <gtest/gtest.h>
#include <signal.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <thread>

#include "memcached_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

json spec_for(const MemcachedServer& server, json phases) {
    return {{"name", "cli"},
            {"kind", "cache"},
            {"tick_ms", 200},
            {"phases", std::move(phases)},
            {"cache",
             {{"servers", {server.endpoint()}},
              {"workload", "cache-aside"},
              {"keys", {{"count", 1000}}},
              {"value_size", {{"min", 100}, {"max", 200}}}}}};
}

TEST(CliRun, InvalidSpecExits2NamingTheField) {
    TempDir dir;
    dir.write("bad.json", R"({"kind": "cache", "phases": [{"duration_s": 1, "rate": -5}],
        "cache": {"servers": ["127.0.0.1:1"], "value_size": {"min": 20480, "max": 10240}}})");
    const auto r = run({PERFLAB_BINARY, "run", dir.file("bad.json"), "--no-store"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("phases[0].rate: must be > 0"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("cache.value_size: min 20480 > max 10240"), std::string::npos) << r.err;
}

TEST(CliRun, BadReplayFileExits2NamingTheFieldAndLine) {
    TempDir dir;
    dir.write("ops.txt", "get a\n# a comment\nset b many\n");
    dir.write(
        "replay.json",
        json{{"kind", "cache"},
             {"phases", {{{"duration_s", 1}, {"concurrency", 1}}}},
             {"cache", {{"servers", {"127.0.0.1:1"}}, {"replay", {{"file", dir.file("ops.txt")}}}}}}
            .dump());
    auto r = run({PERFLAB_BINARY, "run", dir.file("replay.json"), "--no-store"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("cache.replay.file: " + dir.file("ops.txt") + " line 3: size \"many\""),
              std::string::npos)
        << r.err;
    dir.write("missing.json",
              json{{"kind", "cache"},
                   {"phases", {{{"duration_s", 1}, {"concurrency", 1}}}},
                   {"cache",
                    {{"servers", {"127.0.0.1:1"}}, {"replay", {{"file", dir.file("none.txt")}}}}}}
                  .dump());
    r = run({PERFLAB_BINARY, "run", dir.file("missing.json"), "--no-store"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("cache.replay.file: cannot read"), std::string::npos) << r.err;
}

TEST(CliRun, MissingFileAndBadOptionsExit2) {
    auto r = run({PERFLAB_BINARY, "run", "/nonexistent/spec.json", "--no-store"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("/nonexistent/spec.json"), std::string::npos) << r.err;
    r = run({PERFLAB_BINARY, "run", "--no-such-flag"});
    EXPECT_EQ(r.code, 2);
    TempDir dir;
    dir.write("broken.json", "{\"kind\": \"cache\",");
    r = run({PERFLAB_BINARY, "run", dir.file("broken.json"), "--no-store"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("not valid JSON"), std::string::npos) << r.err;
}

// The desktop app's options are listed where a user looks for them; nothing opens a window.
TEST(CliRun, GuiHelpListsTheWindowsOptions) {
    const auto r = run({PERFLAB_BINARY, "gui", "--help"});
    EXPECT_EQ(r.code, 0) << r.err;
    for (const char* option :
         {"--spec", "--start", "--quick-start", "--view", "--open", "--compare", "--size"})
        EXPECT_NE(r.out.find(option), std::string::npos) << option << " missing from\n" << r.out;
}

// Nothing listens where the spec points: no operation ever reached a server, so the run
// failed (exit 1) and says with what, for cache and HTTP runs alike.
TEST(CliRun, NothingListeningFailsWithTheConnectionError) {
    TempDir dir;
    const std::string port = std::to_string(free_port());
    dir.write("cache.json", json{{"name", "nobody"},
                                 {"kind", "cache"},
                                 {"phases", {{{"duration_s", 1}, {"concurrency", 2}}}},
                                 {"cache", {{"servers", {"127.0.0.1:" + port}}}}}
                                .dump());
    dir.write("http.json",
              json{{"name", "nobody"},
                   {"kind", "http"},
                   {"phases", {{{"duration_s", 1}, {"rate", 50}}}},
                   {"http", {{"targets", {{{"url", "http://127.0.0.1:" + port + "/"}}}}}}}
                  .dump());
    for (const char* spec : {"cache.json", "http.json"}) {
        const auto r = run({PERFLAB_BINARY, "run", dir.file(spec), "--no-store"});
        EXPECT_EQ(r.code, 1) << spec << "\n" << r.err;
        EXPECT_NE(r.err.find("no operation reached a server"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("127.0.0.1:" + port), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("refused"), std::string::npos) << r.err;
    }
}

TEST(CliRun, JsonSummaryOnStdoutTicksOnStderr) {
    MemcachedServer server;
    TempDir dir;
    dir.write("spec.json", spec_for(server, {{{"duration_s", 1}, {"concurrency", 2}}}).dump());
    const auto r = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--json", "--no-store"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    for (const char* k :
         {"ops", "hits", "misses", "hit_rate", "bytes_in", "bytes_out", "duration_s", "phases"})
        EXPECT_TRUE(j.contains(k)) << k;
    for (const char* op : {"get", "set"}) {
        const auto& o = j["ops"][op];
        for (const char* k : {"count", "errors", "rate", "latency_us"})
            EXPECT_TRUE(o.contains(k));
        for (const char* k : {"min", "mean", "p50", "p90", "p95", "p99", "p999", "max"})
            EXPECT_TRUE(o["latency_us"].contains(k)) << op << "." << k;
    }
    EXPECT_GT(j["ops"]["get"]["count"].get<uint64_t>(), 0u);
    EXPECT_EQ(j["phases"].size(), 1u);
    EXPECT_NE(r.err.find(" hit:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(" p99:"), std::string::npos);
}

// The last per-second average printed for `op` in each phase, read from the tick lines
// (a "phase N:" event line starts phase N's ticks).
std::vector<double> last_averages(const std::string& out, const std::string& op) {
    const std::regex average(" " + op + "/s:[0-9]+ \\(avg ([0-9]+)\\)");
    std::vector<double> out_averages;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
        if (line.find(" phase ") != std::string::npos) out_averages.push_back(-1);
        std::smatch m;
        if (std::regex_search(line, m, average) && !out_averages.empty())
            out_averages.back() = std::stod(m[1]);
    }
    return out_averages;
}

// The rate/s column of `op`'s row in the report's section `title` ("Phase 2 (").
double report_rate(const std::string& out, const std::string& title, const std::string& op) {
    const auto section = out.find(title);
    if (section == std::string::npos) return -1;
    const auto row = out.find("\n  " + op + " ", section);
    if (row == std::string::npos) return -1;
    std::istringstream fields(out.substr(row + 3));
    std::string name;
    uint64_t count = 0;
    double rate = 0;
    fields >> name >> count >> rate;
    return rate;
}

TEST(CliRun, TickLinesShowEachRateBesideItsPhaseAverage) {
    MemcachedServer server;
    TempDir dir;
    json spec =
        spec_for(server, {{{"duration_s", 1}, {"rate", 300}}, {{"duration_s", 1}, {"rate", 900}}});
    spec["cache"]["workload"] = "get-only";
    dir.write("spec.json", spec.dump());
    const auto r = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(std::regex_search(
        r.out, std::regex(R"(\n00:00:0\d hit:0\.00% get/s:\d+ \(avg \d+\) rx:\S+ tx:\S+ p99:)")))
        << r.out;
    EXPECT_EQ(r.out.find("set/s"), std::string::npos) << r.out;  // get-only sends no sets
    // Each phase's last average is that phase's rate, as the report counts it: the average
    // starts again with each phase.
    const auto averages = last_averages(r.out, "get");
    ASSERT_EQ(averages.size(), 2u) << r.out;
    const double first = report_rate(r.out, "Phase 1 (", "get");
    const double second = report_rate(r.out, "Phase 2 (", "get");
    EXPECT_NEAR(averages[0], first, first * 0.02 + 1) << r.out;
    EXPECT_NEAR(averages[1], second, second * 0.02 + 1) << r.out;
    EXPECT_GT(second, 2 * first) << r.out;
}

TEST(CliRun, SetOnlyRunShowsNoHitRateNorGetRow) {
    MemcachedServer server;
    TempDir dir;
    json spec = spec_for(server, {{{"duration_s", 1}, {"concurrency", 2}}});
    spec["cache"]["workload"] = "set-only";
    dir.write("spec.json", spec.dump());
    const auto r = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n00:00:00 set/s:\d+ \(avg \d+\) rx:)")))
        << r.out;
    EXPECT_EQ(r.out.find("hit"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("get"), std::string::npos) << r.out;
    EXPECT_GT(report_rate(r.out, "Overall (", "set"), 0) << r.out;
}

TEST(CliRun, InterruptStopsCleanlyAndStillReports) {
    MemcachedServer server;
    TempDir dir;
    dir.write("spec.json", spec_for(server, {{{"duration_s", 60}, {"concurrency", 2}}}).dump());
    // With the store on: its writer thread must not take the signal's default action.
    Process p({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", dir.file("runs.db")},
              dir.file("out"), dir.file("err"));
    // Interrupted once it has printed its tick at one second.
    EXPECT_TRUE(wait_until(
        [&] { return read_file(dir.file("out")).find("\n00:00:01 ") != std::string::npos; }));
    p.signal(SIGINT);
    EXPECT_EQ(p.wait(), 0);
    const std::string out = read_file(dir.file("out"));
    // It stopped at the signal, not at the end of its 60-s phase.
    EXPECT_EQ(out.find("\n00:00:59 "), std::string::npos) << out;
    EXPECT_NE(out.find("00:00:01 hit:"), std::string::npos) << out;
    EXPECT_NE(out.find("Overall"), std::string::npos) << out;
    EXPECT_NE(out.find("stopped"), std::string::npos) << out;
}

// --repeat: three runs tagged as one series, which `runs --tag` lists and `compare` pools.
TEST(CliRun, RepeatStoresASeriesThatComparePools) {
    MemcachedServer server;
    TempDir dir;
    auto spec = spec_for(server, {{{"duration_s", 1}, {"rate", 400}, {"concurrency", 2}}});
    spec["tick_ms"] = 100;
    dir.write("spec.json", spec.dump());
    const std::string db = dir.file("runs.db");
    const auto out =
        run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--repeat", "3", "--db", db, "-q"});
    ASSERT_EQ(out.code, 0) << out.err;
    const auto at = out.out.find("series-");
    ASSERT_NE(at, std::string::npos) << out.out;
    const std::string tag = out.out.substr(at, out.out.find_first_of(":", at) - at);
    EXPECT_NE(out.out.find(tag + ": runs 1,2,3"), std::string::npos) << out.out;
    const auto listed = json::parse(
        run({PERFLAB_BINARY, "runs", "--tag", tag, "--db", db, "--json"}).out, nullptr, false);
    ASSERT_TRUE(listed.is_array());
    EXPECT_EQ(listed.size(), 3u);
    const auto compared = json::parse(
        run({PERFLAB_BINARY, "compare", "1,2", "3", "--db", db, "--json"}).out, nullptr, false);
    ASSERT_TRUE(compared.is_object());
    EXPECT_EQ(compared["sides"], json::array({json::array({1, 2}), json::array({3})}));
    EXPECT_EQ(compared["figures"]["throughput"]["verdict"][0], "baseline");
    EXPECT_EQ(
        run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--repeat", "2", "--json", "--no-store"})
            .code,
        2);
}

}  // namespace
}  // namespace perflab::test
