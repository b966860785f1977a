// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <map>
#include <regex>

#include "memcached_probe.h"
#include "memcached_server.h"
#include "process.h"

namespace perflab {
namespace {

// Sets of 100 KB values into a memcached of 8 MB, with a memcached probe on it.
nlohmann::json overfill(const test::MemcachedServer& server, const nlohmann::json& phases,
                        const std::string& name) {
    return {{"name", name},
            {"kind", "cache"},
            {"tick_ms", 500},
            {"phases", phases},
            {"cache",
             {{"servers", {server.endpoint()}},
              {"workload", "set-only"},
              {"keys", {{"count", 100000}}},
              {"value_size", {{"min", 102400}, {"max", 102400}}},
              {"prefill", false}}},
            {"probes", {{{"memcached", server.endpoint()}}}}};
}

// A real run (the perflab binary) overfills a memcached of 8 MB with 100 KB values; the
// memcached probe in its spec shows the evictions on the run's time axis.
TEST(MemcachedProbe, EvictionsRiseWhenARunOverfillsTheServer) {
    test::MemcachedServer server(8);
    test::TempDir dir;
    const nlohmann::json spec =
        overfill(server, {{{"duration_s", 3}, {"concurrency", 2}}}, "overfill");
    dir.write("spec.json", spec.dump());
    const auto o = test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store"}, 60);
    ASSERT_EQ(o.code, 0) << o.out << o.err;
    const std::regex line("memcached 127\\.0\\.0\\.1:\\d+ .*evictions:(\\d+)");
    std::vector<uint64_t> evictions;
    for (std::sregex_iterator it(o.out.begin(), o.out.end(), line), end; it != end; ++it)
        evictions.push_back(std::stoull((*it)[1]));
    ASSERT_GE(evictions.size(), 3u) << o.out;
    EXPECT_GT(evictions.back(), evictions.front()) << o.out;
    EXPECT_GT(evictions.back(), 0u);
    EXPECT_LE(evictions.back(), server.stat("evictions"));
}

// The report sums the server up per phase: the evictions of each phase (the probe's samples'
// evictions_delta) add up to the run's, which are the server's own count.
TEST(MemcachedProbe, ReportSummarizesTheServerPerPhase) {
    test::MemcachedServer server(8);
    test::TempDir dir;
    const nlohmann::json phase = {{"duration_s", 1.5}, {"concurrency", 2}};
    const nlohmann::json spec = overfill(server, {phase, phase}, "overfill in two");
    dir.write("spec.json", spec.dump());
    const std::string db = dir.file("runs.db");
    const auto o = test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "-q"}, 60);
    ASSERT_EQ(o.code, 0) << o.out << o.err;
    const auto md = test::run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "md"}, 30);
    ASSERT_EQ(md.code, 0) << md.err;
    ASSERT_NE(md.out.find("## Servers"), std::string::npos) << md.out;
    // | span | full GCs | GC time | host CPU mean | host CPU max | evictions | memory max |
    const std::regex row(
        "\\| (phase 1|phase 2|run) \\| - \\| - \\| - \\| - \\| (\\d+) \\| ([0-9.]+m) \\|");
    std::map<std::string, uint64_t> evicted;
    for (std::sregex_iterator it(md.out.begin(), md.out.end(), row), end; it != end; ++it)
        evicted[(*it)[1]] = std::stoull((*it)[2]);
    ASSERT_EQ(evicted.size(), 3u) << md.out;
    EXPECT_GT(evicted["run"], 0u) << md.out;
    EXPECT_EQ(evicted["phase 1"] + evicted["phase 2"], evicted["run"]) << md.out;
    // From a baseline as the clock started to a last sample once the replies were in: every
    // eviction the server counted (it started empty, and nothing else used it).
    EXPECT_EQ(evicted["run"], server.stat("evictions"));
}

TEST(MemcachedProbe, LostServerGivesGapsThenResumes) {
    test::MemcachedServer server(8);
    MemcachedProbe probe("127.0.0.1", server.port(), 500);
    probe.open();
    ProbeReading r = probe.poll();
    EXPECT_FALSE(r.gap);
    EXPECT_EQ(r.values["limit_maxbytes"], 8u * 1024 * 1024);
    server.stop();
    r = probe.poll();
    EXPECT_TRUE(r.gap);
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_TRUE(probe.poll().gap);
    server.start();
    EXPECT_TRUE(probe.poll().gap);  // reconnected: a baseline only
    r = probe.poll();
    EXPECT_FALSE(r.gap);
    EXPECT_TRUE(r.values.contains("cmd_get_ps"));
}

TEST(MemcachedProbe, NoServerIsAClearError) {
    const uint16_t port = test::free_port();
    MemcachedProbe probe("127.0.0.1", port, 500);
    try {
        probe.open();
        FAIL() << "opened";
    } catch (const ProbeError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot connect"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace perflab
