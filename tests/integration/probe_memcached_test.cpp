// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <regex>

#include "memcached_probe.h"
#include "memcached_server.h"
#include "process.h"

namespace perflab {
namespace {

// A real run (the perflab binary) overfills a memcached of 8 MB with 100 KB values; the
// memcached probe in its spec shows the evictions on the run's time axis.
TEST(MemcachedProbe, EvictionsRiseWhenARunOverfillsTheServer) {
    test::MemcachedServer server(8);
    test::TempDir dir;
    const nlohmann::json spec = {{"name", "overfill"},
                                 {"kind", "cache"},
                                 {"tick_ms", 500},
                                 {"phases", {{{"duration_s", 3}, {"concurrency", 2}}}},
                                 {"cache",
                                  {{"servers", {server.endpoint()}},
                                   {"workload", "set-only"},
                                   {"keys", {{"count", 100000}}},
                                   {"value_size", {{"min", 102400}, {"max", 102400}}},
                                   {"prefill", false}}},
                                 {"probes", {{{"memcached", server.endpoint()}}}}};
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
