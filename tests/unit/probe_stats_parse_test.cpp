// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "jvm_probe.h"
#include "memcached_probe.h"
#include "probe_line.h"
#include "remote/ssh_session.h"

namespace perflab {
namespace {

std::string fixture(const std::string& name) {
    std::ifstream in(std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/probes/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

TEST(MemcachedStats, ParsesARealReply) {
    const auto stats = parse_memcached_stats(fixture("memcached_stats.txt"));
    EXPECT_EQ(stats.at("version"), "1.6.18");
    EXPECT_EQ(stats.at("limit_maxbytes"), std::to_string(8 * 1024 * 1024));
    EXPECT_TRUE(stats.count("rusage_user"));
    EXPECT_FALSE(stats.count("END"));
}

TEST(MemcachedStats, DeltasPerSecond) {
    std::map<std::string, std::string> a{
        {"evictions", "10"},       {"get_hits", "100"},    {"get_misses", "100"},   {"bytes", "50"},
        {"limit_maxbytes", "200"}, {"rusage_user", "1.0"}, {"rusage_system", "0.5"}};
    auto b = a;
    b["evictions"] = "30";
    b["get_hits"] = "400";
    b["get_misses"] = "200";
    b["rusage_user"] = "1.5";
    b["rusage_system"] = "0.7";
    const auto v = memcached_values(a, b, 2.0);
    EXPECT_DOUBLE_EQ(v["evictions_ps"].get<double>(), 10.0);
    EXPECT_DOUBLE_EQ(v["get_hits_ps"].get<double>(), 150.0);
    EXPECT_DOUBLE_EQ(v["hit_pct"].get<double>(), 75.0);
    EXPECT_DOUBLE_EQ(v["mem_pct"].get<double>(), 25.0);
    EXPECT_NEAR(v["cpu_pct"].get<double>(), 35.0, 1e-9);
    EXPECT_EQ(v["evictions"], 30);
}

TEST(Jstat, ParsesLinesAgainstTheHeader) {
    const auto l = lines(fixture("jstat_g1.txt"));
    std::istringstream h(l[0]);
    std::vector<std::string> header;
    for (std::string w; h >> w;)
        header.push_back(w);
    const auto first = parse_jstat_line(header, l[1]);
    const auto second = parse_jstat_line(header, l[2]);
    EXPECT_DOUBLE_EQ(first.at("E"), 42.86);
    EXPECT_DOUBLE_EQ(first.at("YGC"), 3);
    const auto v = jvm_values(first, second);
    EXPECT_DOUBLE_EQ(v["eden_pct"].get<double>(), 85.71);
    EXPECT_DOUBLE_EQ(v["old_pct"].get<double>(), 12.5);
    EXPECT_DOUBLE_EQ(v["metaspace_pct"].get<double>(), 95.12);
    EXPECT_EQ(v["young_gc_delta"], 2);
    EXPECT_EQ(v["full_gc_delta"], 1);
    EXPECT_NEAR(v["young_gc_ms"].get<double>(), 8.0, 1e-9);
    EXPECT_NEAR(v["full_gc_ms"].get<double>(), 45.0, 1e-9);
    // A column shown as "-" is left out, not read as 0.
    const auto dashes = parse_jstat_line(header, l[3]);
    EXPECT_FALSE(dashes.count("M"));
    EXPECT_FALSE(jvm_values(dashes, dashes).contains("metaspace_pct"));
    // ... and printed as "-", never as 0.
    ProbeSample sample;
    sample.kind = "jvm";
    sample.source = "jvm local pid 1";
    sample.values = jvm_values(dashes, dashes);
    const std::string line = probe_line(sample);
    EXPECT_NE(line.find(" meta:- "), std::string::npos) << line;
    EXPECT_NE(line.find(" eden:3.0% "), std::string::npos) << line;
}

TEST(SshTarget, Parses) {
    auto t = parse_ssh_target("root@db1:2222");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->user, "root");
    EXPECT_EQ(t->host, "db1");
    EXPECT_EQ(t->port, 2222);
    EXPECT_EQ(parse_ssh_target("me@host")->port, 22);
    auto v6 = parse_ssh_target("me@[::1]:22");
    ASSERT_TRUE(v6);
    EXPECT_EQ(v6->host, "::1");
    EXPECT_EQ(v6->text(), "me@[::1]:22");
    for (const char* bad :
         {"host", "@host", "me@", "me@host:", "me@host:99999", "me@host:x", "me@[::1", "me@ho st"})
        EXPECT_FALSE(parse_ssh_target(bad)) << bad;
}

TEST(ShellQuote, SurvivesQuotes) {
    EXPECT_EQ(shell_quote("a b"), "'a b'");
    EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
}

}  // namespace
}  // namespace perflab
