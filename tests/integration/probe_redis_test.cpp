// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <csignal>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "memcached_server.h"
#include "process.h"
#include "redis_probe.h"
#include "redis_server.h"
#include "sshd_server.h"

namespace perflab {
namespace {

RedisTarget target(const test::RedisServer& server) {
    RedisTarget t;
    t.host = "127.0.0.1";
    t.port = server.port();
    t.timeout_ms = 500;
    return t;
}

const std::vector<std::string> kSmallLru = {"--maxmemory", "8mb", "--maxmemory-policy",
                                            "allkeys-lru"};

// A memcached run long enough for the test to act on the Redis server while it lasts (it is
// stopped with SIGINT), with `probe` beside it; the load never touches Redis.
nlohmann::json spec_with(const test::MemcachedServer& load, const nlohmann::json& probe) {
    return {{"name", "redis probe"},
            {"kind", "cache"},
            {"tick_ms", 250},
            {"phases", {{{"duration_s", 120}, {"rate", 200}, {"concurrency", 2}}}},
            {"cache", {{"servers", {load.endpoint()}}, {"prefill", false}}},
            {"probes", {probe}}};
}

// `count` SETs of 64 KB values, through redis-cli's pipe mode: 8 MB fill at about 128.
void overfill(const test::RedisServer& server, int count, const test::TempDir& dir) {
    std::string pipe;
    const std::string value(64 * 1024, 'v');
    for (int i = 0; i < count; ++i) {
        const std::string key = "fill:" + std::to_string(i);
        pipe += "*3\r\n$3\r\nSET\r\n$" + std::to_string(key.size()) + "\r\n" + key + "\r\n$" +
                std::to_string(value.size()) + "\r\n" + value + "\r\n";
    }
    dir.write("fill.resp", pipe);
    const auto o = test::run({"sh", "-c",
                              "redis-cli -h 127.0.0.1 -p " + std::to_string(server.port()) +
                                  " --pipe < " + dir.file("fill.resp")});
    ASSERT_EQ(o.code, 0) << o.out << o.err;
}

// The sum of one capture group over the run's redis probe lines.
uint64_t sum_of(const std::string& text, const std::string& pattern) {
    const std::regex re(pattern);
    uint64_t sum = 0;
    for (std::sregex_iterator it(text.begin(), text.end(), re), end; it != end; ++it)
        sum += std::stoull((*it)[1]);
    return sum;
}

bool has_redis_line(const std::string& path) {
    return test::read_file(path).find(" ops/s:") != std::string::npos;
}

// A real run (the perflab binary) with a redis probe; meanwhile the test overfills a Redis of
// 8 MB (allkeys-lru) and reads known keys. The probe's evictions, hits and misses over the run
// are the server's own INFO counters' rises.
TEST(RedisProbe, EvictionsHitsAndMissesEqualTheServersOwnOverARun) {
    test::MemcachedServer load(64);
    test::RedisServer redis(kSmallLru);
    test::TempDir dir;
    dir.write("spec.json", spec_with(load, {{"redis", redis.endpoint()}}).dump());
    test::Process run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store", "--json"},
                      dir.file("out"), dir.file("err"));
    // A sample after the probe's baseline: what follows is the run's.
    ASSERT_TRUE(
        test::wait_until([&] { return has_redis_line(dir.file("err")); }, std::chrono::seconds(30)))
        << test::read_file(dir.file("err"));
    const auto before = redis.info("stats");
    overfill(redis, 300, dir);
    for (int i = 0; i < 5; ++i)
        redis.cli({"GET", "fill:299"});  // the last one set, the least recently used last
    for (int i = 0; i < 7; ++i)
        redis.cli({"GET", "never-set:" + std::to_string(i)});
    // Eviction may go on in the background until the server is under its limit again.
    ASSERT_TRUE(test::wait_until(
        [&] { return redis.info_number("memory", "used_memory") <= 8u * 1024 * 1024; }));
    run.signal(SIGINT);
    ASSERT_EQ(run.wait(), 0) << test::read_file(dir.file("err"));
    const auto after = redis.info("stats");
    const auto rise = [&](const char* name) {
        return std::stoull(after.at(name)) - std::stoull(before.at(name));
    };
    const uint64_t evicted = rise("evicted_keys"), hits = rise("keyspace_hits"),
                   misses = rise("keyspace_misses");
    EXPECT_GT(evicted, 0u);
    EXPECT_EQ(hits, 5u);
    EXPECT_EQ(misses, 7u);

    const std::string err = test::read_file(dir.file("err"));
    EXPECT_EQ(err.find("-- no data --"), std::string::npos) << err;
    const std::string line = "redis 127\\.0\\.0\\.1:\\d+ ops/s:[^\\n]*";
    EXPECT_EQ(sum_of(err, line + " hits:\\+(\\d+)"), hits) << err;
    EXPECT_EQ(sum_of(err, line + " misses:\\+(\\d+)"), misses) << err;
    EXPECT_EQ(sum_of(err, line + " evictions:\\d+ \\(\\+(\\d+)\\)"), evicted) << err;

    const auto json = nlohmann::json::parse(test::read_file(dir.file("out")));
    const auto& servers = json.at("servers").at("run");
    EXPECT_EQ(servers.at("redis_evictions").get<double>(), double(evicted)) << servers.dump();
    EXPECT_DOUBLE_EQ(servers.at("redis_hit_pct").get<double>(),
                     100.0 * double(hits) / double(hits + misses))
        << servers.dump();
    EXPECT_GT(servers.at("redis_memory_max").get<double>(), 0) << servers.dump();
    EXPECT_TRUE(servers.at("memcached_evictions").is_null()) << servers.dump();
}

// A stored run's Redis evictions are in its report's Servers table and in `compare`, judged as
// memcached's are: a run that evicted against one that did not.
TEST(RedisProbe, ReportAndCompareShowTheEvictions) {
    test::MemcachedServer load(64);
    test::RedisServer redis(kSmallLru);
    test::TempDir dir;
    const std::string db = dir.file("runs.db");
    dir.write("spec.json", spec_with(load, {{"redis", redis.endpoint()}}).dump());
    for (int run_no = 1; run_no <= 2; ++run_no) {
        const std::string err = dir.file("err" + std::to_string(run_no));
        test::Process run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "--json"},
                          dir.file("out"), err);
        ASSERT_TRUE(test::wait_until([&] { return has_redis_line(err); }, std::chrono::seconds(30)))
            << test::read_file(err);
        // The first run evicts; the second finds the server under its limit and evicts nothing.
        if (run_no == 1) overfill(redis, 300, dir);
        ASSERT_TRUE(test::wait_until(
            [&] { return redis.info_number("memory", "used_memory") <= 8u * 1024 * 1024; }));
        run.signal(SIGINT);
        ASSERT_EQ(run.wait(), 0) << test::read_file(err);
    }
    const uint64_t evicted = redis.info_number("stats", "evicted_keys");
    ASSERT_GT(evicted, 0u);

    const auto md = test::run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "md"}, 30);
    ASSERT_EQ(md.code, 0) << md.err;
    // | span | full GCs | GC time | host CPU mean | host CPU max | memcached evictions |
    // memcached memory max | redis evictions | redis hit rate | redis memory max |
    const std::regex row(
        "\\| run \\| - \\| - \\| - \\| - \\| - \\| - \\| (\\d+) \\| [^|]+ \\| "
        "([0-9.]+[kmg]?) \\|");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(md.out, m, row)) << md.out;
    EXPECT_EQ(std::stoull(m[1]), evicted) << md.out;

    const auto show = test::run({PERFLAB_BINARY, "show", "2", "--db", db, "--json"}, 30);
    ASSERT_EQ(show.code, 0) << show.err;
    EXPECT_EQ(nlohmann::json::parse(show.out)["servers"]["run"]["redis_evictions"], 0) << show.out;

    const auto compare = test::run({PERFLAB_BINARY, "compare", "1", "2", "--db", db, "--json"}, 30);
    ASSERT_EQ(compare.code, 0) << compare.err;
    const auto figures = nlohmann::json::parse(compare.out).at("figures");
    ASSERT_TRUE(figures.contains("redis_evictions")) << compare.out;
    const auto& f = figures.at("redis_evictions");
    EXPECT_EQ(f.at("values")[0], double(evicted)) << f.dump();
    EXPECT_EQ(f.at("values")[1], 0) << f.dump();
    EXPECT_EQ(f.at("verdict")[1], "better") << f.dump();
    const auto check = test::run({PERFLAB_BINARY, "compare", "2", "1", "--db", db, "--check",
                                  "--figures", "redis_evictions"},
                                 30);
    EXPECT_EQ(check.code, 3) << check.out << check.err;
    EXPECT_NE(check.out.find("worse: redis_evictions"), std::string::npos) << check.out;
}

// What the probe reads is INFO's: its gauges, and Redis 7's own latency percentiles as the
// server prints them.
TEST(RedisProbe, ValuesAreTheServersInfo) {
    test::RedisServer redis(kSmallLru);
    redis.cli({"SET", "k", "v"});
    redis.cli({"GET", "k"});
    RedisProbe probe(target(redis));
    probe.open();
    const ProbeReading r = probe.poll();
    ASSERT_FALSE(r.gap);
    EXPECT_EQ(r.values.at("maxmemory"), 8u * 1024 * 1024);
    EXPECT_GT(r.values.at("used_memory").get<double>(), 0);
    EXPECT_GE(r.values.at("connected_clients"), 1);  // the probe itself
    EXPECT_EQ(r.values.at("blocked_clients"), 0);
    EXPECT_EQ(r.values.at("keyspace_hits"), 1);
    // "latency_percentiles_usec_get:p50=6.015,p99=6.015,p99.9=6.015"
    const std::string get = redis.info("latencystats").at("latency_percentiles_usec_get");
    const std::regex pcts("p50=([0-9.]+),p99=([0-9.]+),p99\\.9=([0-9.]+)");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(get, m, pcts)) << get;
    EXPECT_DOUBLE_EQ(r.values.at("latency_get_p50_us").get<double>(), std::stod(m[1]));
    EXPECT_DOUBLE_EQ(r.values.at("latency_get_p99_us").get<double>(), std::stod(m[2]));
    EXPECT_DOUBLE_EQ(r.values.at("latency_get_p999_us").get<double>(), std::stod(m[3]));
    EXPECT_TRUE(r.values.contains("latency_set_p99_us")) << r.values.dump();
}

// A server gone is a gap and one event; back, a baseline first, then values again.
TEST(RedisProbe, LostServerGivesGapsThenResumes) {
    test::RedisServer redis;
    RedisProbe probe(target(redis));
    probe.open();
    EXPECT_FALSE(probe.poll().gap);
    redis.stop();
    ProbeReading r = probe.poll();
    EXPECT_TRUE(r.gap);
    ASSERT_EQ(r.events.size(), 1u);
    EXPECT_NE(r.events[0].text.find("probe redis 127.0.0.1:"), std::string::npos)
        << r.events[0].text;
    r = probe.poll();
    EXPECT_TRUE(r.gap);
    EXPECT_TRUE(r.events.empty());
    redis.start();
    EXPECT_TRUE(probe.poll().gap);  // reconnected: a baseline only
    r = probe.poll();
    EXPECT_FALSE(r.gap);
    EXPECT_TRUE(r.values.contains("ops_ps"));
}

// The same in a run: the load goes on, the probe's lines say the gap, and the run ends well.
TEST(RedisProbe, AServerThatGoesAwayMidRunIsAGap) {
    test::MemcachedServer load(64);
    test::RedisServer redis;
    test::TempDir dir;
    dir.write("spec.json", spec_with(load, {{"redis", redis.endpoint()}}).dump());
    test::Process run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store"}, dir.file("out"),
                      dir.file("err"));
    const auto out = [&] { return test::read_file(dir.file("out")); };
    ASSERT_TRUE(
        test::wait_until([&] { return has_redis_line(dir.file("out")); }, std::chrono::seconds(30)))
        << out();
    redis.stop();
    ASSERT_TRUE(test::wait_until([&] { return out().find("-- no data --") != std::string::npos; }))
        << out();
    const uint64_t sets_in_gap = load.stat("cmd_get") + load.stat("cmd_set");
    redis.start();
    // A sample after the gap (its first tick back is a baseline).
    ASSERT_TRUE(test::wait_until([&] {
        const std::string text = out();
        return text.find(" ops/s:", text.rfind("-- no data --")) != std::string::npos;
    })) << out();
    run.signal(SIGINT);
    EXPECT_EQ(run.wait(), 0) << test::read_file(dir.file("err"));
    EXPECT_GT(load.stat("cmd_get") + load.stat("cmd_set"), sets_in_gap) << "the load stopped";
    EXPECT_NE(out().find("probe redis 127.0.0.1:"), std::string::npos) << out();
}

// The password is read from the environment when the run starts; a spec holds only its name.
TEST(RedisProbe, PasswordComesFromTheEnvironmentAndIsNeverStored) {
    const std::string secret = "s3cret-redis-pw";
    test::MemcachedServer load(64);
    test::RedisServer redis({"--requirepass", secret});
    test::TempDir dir;
    const std::string db = dir.file("runs.db");
    auto spec = spec_with(load, {{"redis", redis.endpoint()}, {"password", "${PERFLAB_REDIS_PW}"}});
    spec["phases"] = {{{"duration_s", 1}, {"rate", 200}, {"concurrency", 2}}};
    dir.write("spec.json", spec.dump());
    {
        const auto unset = test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db});
        EXPECT_EQ(unset.code, 2) << unset.out << unset.err;
        EXPECT_NE(unset.err.find("PERFLAB_REDIS_PW is not set"), std::string::npos) << unset.err;
    }
    {
        test::ScopedEnv wrong("PERFLAB_REDIS_PW", "not-it");
        const auto o = test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db});
        EXPECT_EQ(o.code, 2) << o.out << o.err;
        EXPECT_NE(o.err.find("AUTH refused"), std::string::npos) << o.err;
    }
    test::ScopedEnv env("PERFLAB_REDIS_PW", secret);
    const auto o = test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db});
    ASSERT_EQ(o.code, 0) << o.out << o.err;
    EXPECT_NE(o.out.find(" ops/s:"), std::string::npos) << o.out;
    const auto show = test::run({PERFLAB_BINARY, "show", "1", "--db", db, "--json"}, 30);
    ASSERT_EQ(show.code, 0) << show.err;
    EXPECT_NE(show.out.find("${PERFLAB_REDIS_PW}"), std::string::npos) << show.out;
    EXPECT_EQ(show.out.find(secret), std::string::npos);
    for (const char* file : {"runs.db", "runs.db-wal"})  // a WAL left or not
        EXPECT_EQ(test::read_file(dir.file(file)).find(secret), std::string::npos) << file;
}

// A literal password, as a cache run's may be: AUTH takes it as given (the probe's lines come,
// where a refused one stops the run), every stored copy holds "***", and that mask given back
// is refused.
TEST(RedisProbe, LiteralPasswordIsSentAndWrittenDownMasked) {
    const std::string secret = "s3cret-literal-pw";
    test::MemcachedServer load(64);
    test::RedisServer redis({"--requirepass", secret});
    test::TempDir dir;
    const std::string db = dir.file("runs.db");
    auto spec = spec_with(load, {{"redis", redis.endpoint()}, {"password", secret}});
    spec["phases"] = {{{"duration_s", 1}, {"rate", 200}, {"concurrency", 2}}};
    dir.write("spec.json", spec.dump());
    const auto o = test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db});
    ASSERT_EQ(o.code, 0) << o.out << o.err;
    EXPECT_NE(o.out.find("redis " + redis.endpoint() + " ops/s:"), std::string::npos) << o.out;
    const auto show = test::run({PERFLAB_BINARY, "show", "1", "--db", db, "--json"}, 30);
    ASSERT_EQ(show.code, 0) << show.err;
    const auto stored = nlohmann::json::parse(show.out)["spec"];
    EXPECT_EQ(stored["probes"][0]["password"], "***") << stored.dump();
    EXPECT_EQ(show.out.find(secret), std::string::npos);
    for (const char* file : {"runs.db", "runs.db-wal"})
        EXPECT_EQ(test::read_file(dir.file(file)).find(secret), std::string::npos) << file;
    dir.write("again.json", stored.dump());
    const auto again = test::run({PERFLAB_BINARY, "run", dir.file("again.json"), "--no-store"});
    EXPECT_EQ(again.code, 2) << again.out << again.err;
    EXPECT_NE(again.err.find("password: \"***\" is the mask"), std::string::npos) << again.err;
}

// `perflab probe redis:host:port` prints the probe's lines as a run does, without one.
TEST(RedisProbe, ProbeCommandPrintsItsLines) {
    test::RedisServer redis(kSmallLru);
    const auto o = test::run({PERFLAB_BINARY, "probe", "redis:" + redis.endpoint(), "--count", "2",
                              "--interval-ms", "200"},
                             30);
    ASSERT_EQ(o.code, 0) << o.out << o.err;
    EXPECT_NE(o.out.find("redis " + redis.endpoint() + " ops/s:"), std::string::npos) << o.out;
    EXPECT_NE(o.out.find("mem:"), std::string::npos) << o.out;
    const auto bad = test::run({PERFLAB_BINARY, "probe", "redis:127.0.0.1"}, 30);
    EXPECT_EQ(bad.code, 2) << bad.out << bad.err;
    EXPECT_NE(bad.err.find("bad redis server"), std::string::npos) << bad.err;
}

// Bad input names its key and exits 2 before anything runs.
TEST(RedisProbe, BadProbeSpecExitsTwoNamingTheKey) {
    test::MemcachedServer load(64);
    test::TempDir dir;
    const std::pair<nlohmann::json, std::string> cases[] = {
        {{{"redis", "127.0.0.1"}}, "probes[0].redis"},
        {{{"redis", "127.0.0.1:6379"}, {"via", "nohost"}}, "probes[0].via"},
        {{{"redis", "127.0.0.1:6379"}, {"password", ""}}, "probes[0].password"},
        {{{"redis", "127.0.0.1:6379"}, {"password", "${OPEN"}}, "probes[0].password"},
        {{{"memcached", "127.0.0.1:11211"}, {"password", "${X}"}}, "probes[0].password"},
        {{{"redis", "127.0.0.1:6379"}, {"per_core", true}}, "probes[0].per_core"}};
    for (const auto& [probe, key] : cases) {
        dir.write("spec.json", spec_with(load, probe).dump());
        const auto o = test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store"});
        EXPECT_EQ(o.code, 2) << probe.dump() << o.out << o.err;
        EXPECT_NE(o.err.find(key), std::string::npos) << probe.dump() << o.err;
    }
    EXPECT_EQ(load.stat("cmd_get") + load.stat("cmd_set"), 0u) << "load ran anyway";
}

// With via, the host makes the connection (an SSH channel to host:port, as `ssh -L` does): a
// Redis bound to the host's loopback is read without a program of PerfLab's there.
TEST(RedisProbe, ViaReadsTheServerThroughTheHost) {
    test::RedisServer redis;
    test::SshdServer sshd;
    RedisTarget t = target(redis);
    t.via = parse_ssh_target(sshd.target());
    t.ssh_options.key_file = sshd.client_key();
    t.ssh_options.known_hosts = sshd.known_hosts();
    RedisProbe probe(t);
    EXPECT_NE(probe.source().find(" via " + sshd.target()), std::string::npos) << probe.source();
    probe.open();
    redis.cli({"GET", "missing"});
    ProbeReading r = probe.poll();
    ASSERT_FALSE(r.gap) << r.values.dump();
    EXPECT_EQ(r.values.at("keyspace_misses_delta"), redis.info_number("stats", "keyspace_misses"));
    redis.stop();
    r = probe.poll();
    EXPECT_TRUE(r.gap);
    EXPECT_EQ(r.events.size(), 1u);
    redis.start();
    EXPECT_TRUE(probe.poll().gap);  // a baseline
    EXPECT_FALSE(probe.poll().gap);
}

}  // namespace
}  // namespace perflab
