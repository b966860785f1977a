// SPDX-License-Identifier: MIT
#include "process_probe.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/spec.h"

namespace perflab {
namespace {

nlohmann::json with_probe(const nlohmann::json& probe) {
    return {{"name", "t"},
            {"kind", "http"},
            {"phases", {{{"duration_s", 1}, {"rate", 10}}}},
            {"http", {{"targets", {{{"url", "http://127.0.0.1:9/"}}}}}},
            {"probes", {probe}}};
}

TEST(ProcessSpec, ReadsEveryKeyAndRoundTrips) {
    const nlohmann::json probe = {{"process", {{"match", "java"}, {"top", 3}}},
                                  {"via", "admin@db1:2222"},
                                  {"key", "/keys/id"}};
    const SpecResult r = parse_spec(with_probe(probe));
    ASSERT_TRUE(r) << r.error_text();
    const ProbeSpec& p = r.spec->probes.at(0);
    EXPECT_EQ(p.type, ProbeSpec::Type::process);
    EXPECT_EQ(p.match, "java");
    EXPECT_EQ(p.top, 3);
    EXPECT_EQ(p.target, "admin@db1:2222");
    EXPECT_EQ(p.key, "/keys/id");
    EXPECT_EQ(to_json(*r.spec).at("probes").at(0), probe);
    const SpecResult by_pid = parse_spec(with_probe({{"process", {{"pid", 123}}}}));
    ASSERT_TRUE(by_pid) << by_pid.error_text();
    EXPECT_EQ(by_pid.spec->probes.at(0).pid, 123);
    EXPECT_EQ(by_pid.spec->probes.at(0).top, 5);
}

TEST(ProcessSpec, BadProbesNameTheirField) {
    const std::vector<std::pair<nlohmann::json, std::string>> cases = {
        {{{"process", nlohmann::json::object()}}, "probes[0].process"},
        {{{"process", {{"pid", 1}, {"match", "java"}}}}, "probes[0].process"},
        {{{"process", "java"}}, "probes[0].process"},
        {{{"process", {{"pid", 0}}}}, "probes[0].process.pid"},
        {{{"process", {{"match", "java"}, {"top", 0}}}}, "probes[0].process.top"},
        {{{"process", {{"match", "java"}, {"ssh", "a@b"}}}}, "probes[0].process.ssh"},
        {{{"process", {{"match", "java"}}}, {"via", "db1"}}, "probes[0].via"},
        {{{"process", {{"match", "java"}}}, {"per_core", true}}, "probes[0].per_core"},
    };
    for (const auto& [probe, field] : cases) {
        const SpecResult r = parse_spec(with_probe(probe));
        EXPECT_FALSE(r) << probe.dump();
        EXPECT_NE(r.error_text().find(field), std::string::npos)
            << probe.dump() << ": " << r.error_text();
    }
}

TEST(ProcessProbeParse, StatLineWithSpacesAndParenthesesInItsComm) {
    const auto s = parse_proc_stat(
        "4242 (C2 (Compiler) 1) R 1 4242 4242 0 -1 4194560 1200 0 0 0 731 46 0 0 20 0 18 0");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->pid, 4242);
    EXPECT_EQ(s->comm, "C2 (Compiler) 1");
    EXPECT_EQ(s->utime, 731);
    EXPECT_EQ(s->stime, 46);
    EXPECT_FALSE(parse_proc_stat(""));
    EXPECT_FALSE(parse_proc_stat("12 (x) R 1 2"));
}

TEST(ProcessProbeParse, JcmdThreadLinesInHexAndDecimal) {
    const auto java17 = parse_jcmd_thread(
        "\"hot-alpha\" #15 prio=5 os_prio=0 cpu=1893.21ms elapsed=2.10s tid=0x00007f3c "
        "nid=0x1a2b runnable  [0x00007f3c]");
    ASSERT_TRUE(java17);
    EXPECT_EQ(java17->first, 0x1a2b);
    EXPECT_EQ(java17->second, "hot-alpha");
    const auto java21 = parse_jcmd_thread(
        "\"GC Thread#0\" os_prio=0 cpu=0.31ms elapsed=2.11s tid=0x00007f nid=6699 runnable");
    ASSERT_TRUE(java21);
    EXPECT_EQ(java21->first, 6699);
    EXPECT_EQ(java21->second, "GC Thread#0");
    EXPECT_FALSE(parse_jcmd_thread("   java.lang.Thread.State: RUNNABLE"));
}

TEST(ProcessProbeValues, RatesOverTheFarSidesClockAndTheTopThreadsByName) {
    ProcessReading a, b;
    a.uptime_s = 100.0;
    b.uptime_s = 102.0;  // 2 s at 100 ticks/s: 200 ticks are one core
    a.utime_ticks = 1000;
    b.utime_ticks = 1300;  // 150% of a core
    a.stime_ticks = 50;
    b.stime_ticks = 60;  // 5%
    a.ctx_voluntary = 10;
    b.ctx_voluntary = 30;
    b.rss_bytes = 4096;
    b.threads = 3;
    a.tasks = {{1, {"java", 10}}, {2, {"java", 500}}, {3, {"java", 400}}};
    b.tasks = {{1, {"java", 12}}, {2, {"java", 690}}, {3, {"java", 510}}, {4, {"cold", 0}}};
    const auto v = process_values(a, b, 100, 2, {{2, "hot-alpha"}});
    EXPECT_DOUBLE_EQ(v.at("cpu_user_pct").get<double>(), 150);
    EXPECT_DOUBLE_EQ(v.at("cpu_system_pct").get<double>(), 5);
    EXPECT_DOUBLE_EQ(v.at("ctx_voluntary_ps").get<double>(), 10);
    EXPECT_FALSE(v.contains("ctx_involuntary_ps"));  // not read: left out, not 0
    EXPECT_FALSE(v.contains("open_files"));
    EXPECT_EQ(v.at("rss").get<double>(), 4096);
    EXPECT_EQ(v.at("threads").get<double>(), 3);
    EXPECT_DOUBLE_EQ(v.at("thread.hot-alpha.cpu_pct").get<double>(), 95);
    EXPECT_DOUBLE_EQ(v.at("thread.java.cpu_pct").get<double>(), 55);
    EXPECT_EQ(v.size(), 7u) << v.dump();
}

}  // namespace
}  // namespace perflab
