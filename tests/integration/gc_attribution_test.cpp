// SPDX-License-Identifier: MIT
// Where a full GC is charged, held to the GC log: a JVM service that collects when told
// (tests/fixtures/jvm/PerflabGcOnCue.java) is cued as a phase or a step begins, and collects
// at chosen times after; the GC log's stamps, against the cue's, say in which phase each
// collection ran. The SLO verdict, the servers' figures of `run --json` and `show --json`, the
// Servers table and a search's steps must all charge it there.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "http_run_helpers.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

// The service, its GC log, and the cue that starts its schedule.
class CuedJvm {
  public:
    explicit CuedJvm(const TempDir& dir) : dir_(dir), port_(free_port()) {
        const auto javac =
            run({"javac", "-d", dir.path(),
                 std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/jvm/PerflabGcOnCue.java"},
                120);
        EXPECT_EQ(javac.code, 0) << javac.err;
        jvm_ = Process({"java", "-Xmx128m", "-XX:+UseG1GC", "-Xlog:gc:file=" + dir.file("gc.log"),
                        "-cp", dir.path(), "PerflabGcOnCue", std::to_string(port_), dir.file("cue"),
                        dir.file("anchor")});
        EXPECT_TRUE(wait_for_port(port_, 30000)) << "the JVM service did not start";
    }
    pid_t pid() const { return jvm_.pid(); }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/"; }

    // Collections at these ms after now; returns once the service has taken the cue.
    void cue(const std::string& times_ms) {
        dir_.write("cue.tmp", times_ms);
        std::filesystem::rename(dir_.file("cue.tmp"), dir_.file("cue"));
        ASSERT_TRUE(wait_until([&] { return std::filesystem::exists(dir_.file("anchor")); },
                               std::chrono::seconds(30)));
    }

    // Each full collection's time in ms after the cue, from the GC log ("[12.345s]...Pause
    // Full"): the JVM's uptime, as the anchor is.
    std::vector<double> full_gcs_after_cue() const {
        const double anchor = std::stod(read_file(dir_.file("anchor")));
        std::vector<double> out;
        std::istringstream log(read_file(dir_.file("gc.log")));
        const std::regex stamp(R"(^\[(\d+\.\d+)s\].*Pause Full)");
        std::smatch m;
        for (std::string line; std::getline(log, line);)
            if (std::regex_search(line, m, stamp)) out.push_back(std::stod(m[1]) * 1000 - anchor);
        return out;
    }

  private:
    const TempDir& dir_;
    uint16_t port_;
    Process jvm_;
};

// Runs perflab with `args`; cues the service when stderr shows `begins` (a phase's event).
test::Output run_cued(const TempDir& dir, const std::vector<std::string>& args, CuedJvm& jvm,
                      const std::string& begins, const std::string& times_ms) {
    std::vector<std::string> argv = {PERFLAB_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    Process perflab(argv, dir.file("out"), dir.file("err"));
    EXPECT_TRUE(
        wait_until([&] { return read_file(dir.file("err")).find(begins) != std::string::npos; },
                   std::chrono::seconds(60)))
        << read_file(dir.file("err"));
    jvm.cue(times_ms);
    test::Output out;
    out.code = perflab.wait();
    out.out = read_file(dir.file("out"));
    out.err = read_file(dir.file("err"));
    return out;
}

// The phase whose span (from its start to the next one's) holds `t_ms`, by the report's
// phase starts.
int phase_at(const json& phases, double t_ms) {
    int at = -1;
    for (const auto& p : phases)
        if (p["start_ms"].get<double>() <= t_ms) at = p["phase"].get<int>();
    return at;
}

// The SLO's full-GC count of each phase, by the verdict's checks.
std::map<int, double> slo_full_gcs(const json& slo) {
    std::map<int, double> out;
    for (const auto& c : slo["checks"])
        if (c["key"] == "max_full_gcs" && c.contains("phase"))
            out[c["phase"].get<int>()] = c["measured"].get<double>();
    return out;
}

std::map<int, double> servers_full_gcs(const json& servers) {
    std::map<int, double> out;
    for (const auto& p : servers["phases"])
        out[p["phase"].get<int>()] = p["jvm_full_gcs"].get<double>();
    return out;
}

// Three phases, a full GC 0.5 s before the end of the first and the second and one in the
// last second of the run: each phase has the GC the log puts in it, by every output.
TEST(GcAttribution, EveryOutputChargesAPhaseTheGcsTheLogPutsInIt) {
    TempDir dir;
    CuedJvm jvm(dir);
    const json phase = {{"rate", 100}, {"duration_s", 3}, {"concurrency", 4}};
    auto spec = http_spec(jvm.url(), {phase, phase, phase});
    spec["tick_ms"] = 100;
    spec["probes"] = {{{"jvm", {{"pid", jvm.pid()}}}}};
    spec["slo"] = {{"max_full_gcs", 0}};
    dir.write("spec.json", spec.dump());
    const auto out =
        run_cued(dir, {"run", dir.file("spec.json"), "--db", dir.file("runs.db"), "--json"}, jvm,
                 "phase 1:", "2500,5500,8600");
    EXPECT_EQ(out.code, 3) << out.err;  // each phase breaks max_full_gcs: 0
    const auto report = json::parse(out.out, nullptr, false);
    ASSERT_TRUE(report.is_object() && report.contains("servers")) << out.out;

    // The truth: the GC log's collections, placed by the report's phase starts (the cue came
    // as the first phase began).
    const auto gcs = jvm.full_gcs_after_cue();
    ASSERT_EQ(gcs.size(), 3u) << read_file(dir.file("gc.log"));
    const double first_start = report["phases"][0]["start_ms"].get<double>();
    std::map<int, double> logged = {{0, 0}, {1, 0}, {2, 0}};
    for (const double t : gcs)
        ++logged[phase_at(report["phases"], first_start + t)];

    EXPECT_EQ(slo_full_gcs(report["slo"]), logged) << report["slo"].dump(2);
    EXPECT_EQ(servers_full_gcs(report["servers"]), logged) << report["servers"].dump(2);
    EXPECT_EQ(report["servers"]["run"]["jvm_full_gcs"], 3) << report["servers"].dump(2);

    // The stored run says the same, in JSON and in the Servers table.
    const auto shown = run({PERFLAB_BINARY, "show", "1", "--db", dir.file("runs.db"), "--json"});
    ASSERT_EQ(shown.code, 0) << shown.err;
    const auto stored = json::parse(shown.out, nullptr, false);
    ASSERT_TRUE(stored.is_object()) << shown.out;
    EXPECT_EQ(slo_full_gcs(stored["summary"]["slo"]), logged) << stored["summary"]["slo"].dump(2);
    EXPECT_EQ(servers_full_gcs(stored["servers"]), logged) << stored["servers"].dump(2);
    const auto text = run({PERFLAB_BINARY, "show", "1", "--db", dir.file("runs.db")});
    ASSERT_EQ(text.code, 0) << text.err;
    for (int p = 0; p < 3; ++p) {
        const std::regex row("\\| phase " + std::to_string(p + 1) + R"( \| )" +
                             std::to_string(int(logged[p])) + R"( \|)");
        EXPECT_TRUE(std::regex_search(text.out, row)) << text.out;
    }
}

// A search whose 200/s step has a full GC 0.5 s before its end: that step fails, and the rate
// found is below it.
TEST(GcAttribution, AGcJustBeforeAStepEndsFailsThatStep) {
    TempDir dir;
    CuedJvm jvm(dir);
    auto spec = http_spec(jvm.url(), json::array());
    spec.erase("phases");
    spec["tick_ms"] = 100;
    spec["probes"] = {{{"jvm", {{"pid", jvm.pid()}}}}};
    spec["slo"] = {{"max_full_gcs", 0}};
    spec["search"] = {{"rate_from", 100}, {"rate_to", 400},   {"step_s", 3},   {"precision", 0.2},
                      {"warmup_s", 1},    {"concurrency", 8}, {"settle_s", 0}, {"confirm_s", 0}};
    dir.write("spec.json", spec.dump());
    // Phase 3 is the second step: warm-up, 100/s, then 200/s.
    const auto out = run_cued(dir, {"run", dir.file("spec.json"), "--no-store", "--json"}, jvm,
                              "phase 3:", "2500");
    ASSERT_EQ(out.code, 0) << out.err;
    const auto report = json::parse(out.out, nullptr, false);
    ASSERT_TRUE(report.is_object() && report.contains("search")) << out.out;
    const json& search = report["search"];

    const auto gcs = jvm.full_gcs_after_cue();
    ASSERT_EQ(gcs.size(), 1u) << read_file(dir.file("gc.log"));
    const double cued_at = report["phases"][2]["start_ms"].get<double>();
    const int gc_phase = phase_at(report["phases"], cued_at + gcs.front());
    ASSERT_GE(gc_phase, 1) << "the log's collection falls in no step";

    double gc_step_rate = 0;
    for (const auto& step : search["steps"]) {
        const bool has_gc = step["phase"].get<int>() == gc_phase;
        EXPECT_EQ(step["full_gcs"], has_gc ? 1 : 0) << step.dump();
        EXPECT_EQ(step["passed"].get<bool>(), !has_gc) << step.dump();
        if (has_gc) gc_step_rate = step["rate"].get<double>();
    }
    ASSERT_GT(gc_step_rate, 0) << search.dump(2);
    ASSERT_TRUE(search["max_rate"].is_number()) << search.dump(2);
    EXPECT_LT(search["max_rate"].get<double>(), gc_step_rate) << search.dump(2);
    EXPECT_EQ(search["failed_check"]["key"], "max_full_gcs") << search.dump(2);
}

// compare judges the servers' figures and --check takes them: a run with a full GC against
// one without is worse in jvm_full_gcs, the other way round better, and checking it on runs
// no JVM probe watched is bad input.
TEST(GcAttribution, CompareChecksTheServersFigures) {
    TempDir dir;
    CuedJvm jvm(dir);
    auto spec = http_spec(jvm.url(), {{{"rate", 100}, {"duration_s", 2}, {"concurrency", 4}}});
    spec["tick_ms"] = 100;
    spec["probes"] = {{{"jvm", {{"pid", jvm.pid()}}}}};
    dir.write("spec.json", spec.dump());
    const std::string db = dir.file("runs.db");
    const auto quiet = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "--quiet"});
    ASSERT_EQ(quiet.code, 0) << quiet.err;
    const auto collected = run_cued(dir, {"run", dir.file("spec.json"), "--db", db, "--json"}, jvm,
                                    "phase 1:", "1000");
    ASSERT_EQ(collected.code, 0) << collected.err;
    ASSERT_EQ(jvm.full_gcs_after_cue().size(), 1u) << read_file(dir.file("gc.log"));

    const auto worse =
        run({PERFLAB_BINARY, "compare", "1", "2", "--db", db, "--check", "--figures", "full_gcs"});
    EXPECT_EQ(worse.code, 3) << worse.out << worse.err;
    EXPECT_NE(worse.out.find("check: worse: jvm_full_gcs"), std::string::npos) << worse.out;
    const auto json_out = run({PERFLAB_BINARY, "compare", "1", "2", "--db", db, "--json"});
    ASSERT_EQ(json_out.code, 0) << json_out.err;
    const auto c = json::parse(json_out.out, nullptr, false);
    ASSERT_TRUE(c.is_object()) << json_out.out;
    const json& gcs = c["figures"]["jvm_full_gcs"];
    EXPECT_EQ(gcs["values"], json({0, 1})) << gcs.dump();
    EXPECT_EQ(gcs["verdict"], json({"baseline", "worse"})) << gcs.dump();

    const auto better =
        run({PERFLAB_BINARY, "compare", "2", "1", "--db", db, "--check", "--figures", "full_gcs"});
    EXPECT_EQ(better.code, 0) << better.out << better.err;

    spec.erase("probes");
    dir.write("unprobed.json", spec.dump());
    for (int i = 0; i < 2; ++i)
        ASSERT_EQ(
            run({PERFLAB_BINARY, "run", dir.file("unprobed.json"), "--db", db, "--quiet"}).code, 0);
    const auto unmeasured = run(
        {PERFLAB_BINARY, "compare", "3", "4", "--db", db, "--check", "--figures", "p99,full_gcs"});
    EXPECT_EQ(unmeasured.code, 2) << unmeasured.out;
    EXPECT_NE(unmeasured.err.find("no run has jvm_full_gcs"), std::string::npos) << unmeasured.err;
}

}  // namespace
}  // namespace perflab::test
