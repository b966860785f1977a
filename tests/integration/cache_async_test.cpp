// SPDX-License-Identifier: MIT
// The async driver against a real memcached: every count PerfLab reports must equal what the
// server counted, in both protocols, with and without pipelining; a server that goes away
// and comes back costs errors, not the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "engine.h"
#include "memcached_server.h"
#include "model/observer.h"
#include "process.h"
#include "run_controller.h"
#include "tcp_table.h"

namespace perflab::test {
namespace {

using nlohmann::json;

class Samples : public RunObserver {
  public:
    void on_sample(const IntervalSample& s) override {
        std::lock_guard lock(mutex_);
        samples_.push_back(s);
    }
    std::vector<IntervalSample> take() {
        std::lock_guard lock(mutex_);
        return samples_;
    }

  private:
    std::mutex mutex_;
    std::vector<IntervalSample> samples_;
};

RunSummary run(const json& spec_json, Samples* samples = nullptr) {
    auto parsed = parse_spec(spec_json);
    if (!parsed) throw std::runtime_error("invalid spec: " + parsed.error_text());
    RunController controller(*parsed.spec, make_engine(*parsed.spec));
    if (samples) controller.add_observer(samples);
    return controller.run();
}

json async_spec(std::vector<std::string> servers, const std::string& workload,
                const std::string& protocol, int pipeline, json phases) {
    return {{"name", "async"},
            {"kind", "cache"},
            {"tick_ms", 250},
            {"phases", std::move(phases)},
            {"cache",
             {{"servers", servers},
              {"protocol", protocol},
              {"workload", workload},
              {"get_ratio", 3},
              {"set_ratio", 1},
              {"keys", {{"count", 2000}, {"prefix", "as:"}}},
              {"value_size", {{"min", 16}, {"max", 4096}}},
              {"driver", "async"},
              {"threads", 2},
              {"pipeline", pipeline}}}};
}

uint64_t op_count(const RunSummary& s, const char* op) {
    const auto it = s.overall.totals.ops.find(op);
    return it == s.overall.totals.ops.end() ? 0 : it->second.count;
}

struct Case {
    std::string workload;
    std::string protocol;
    int pipeline;
};

class AsyncExactCounts : public ::testing::TestWithParam<Case> {};

TEST_P(AsyncExactCounts, EqualTheServersStatsDeltas) {
    const auto& c = GetParam();
    MemcachedServer server;
    const auto before = cache_counters(server);
    const auto s = run(async_spec({server.endpoint()}, c.workload, c.protocol, c.pipeline,
                                  {{{"ops", 6000}, {"concurrency", 5}}}));
    const auto after = cache_counters(server);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    const auto& t = s.overall.totals;
    EXPECT_EQ(t.total_errors(), 0u);
    EXPECT_EQ(op_count(s, "get"), after.cmd_get - before.cmd_get);
    EXPECT_EQ(op_count(s, "set"), after.cmd_set - before.cmd_set);
    EXPECT_EQ(t.hits, after.get_hits - before.get_hits);
    EXPECT_EQ(t.misses, after.get_misses - before.get_misses);
    EXPECT_EQ(t.sent, t.total_ops());
    if (c.workload == "cache-aside") {
        EXPECT_EQ(op_count(s, "get"), 6000u);
        EXPECT_EQ(op_count(s, "set"), t.misses);
        EXPECT_GT(t.hits, 0u);
    } else if (c.workload == "ratio") {
        EXPECT_EQ(op_count(s, "get"), 4500u);
        EXPECT_EQ(op_count(s, "set"), 1500u);
    } else if (c.workload == "get-only") {
        EXPECT_EQ(op_count(s, "get"), 6000u);
        EXPECT_EQ(t.hits, 0u);
    } else {
        EXPECT_EQ(op_count(s, "set"), 6000u);
        EXPECT_GT(t.bytes_out, 6000u * 16);
    }
}

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (const char* w : {"cache-aside", "ratio", "get-only", "set-only"})
        for (const char* p : {"text", "meta"})
            for (int pipeline : {1, 8})
                cases.push_back({w, p, pipeline});
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Workloads, AsyncExactCounts, ::testing::ValuesIn(all_cases()),
                         [](const auto& info) {
                             std::string name = info.param.workload + "_" + info.param.protocol +
                                                "_pipeline" + std::to_string(info.param.pipeline);
                             for (auto& ch : name)
                                 if (ch == '-') ch = '_';
                             return name;
                         });

TEST(AsyncEngine, PrefilledKeySpaceHitsEveryTime) {
    MemcachedServer server;
    auto spec = async_spec({server.endpoint()}, "cache-aside", "meta", 4,
                           {{{"ops", 5000}, {"concurrency", 4}}});
    spec["cache"]["prefill"] = true;
    const auto before = cache_counters(server);
    const auto s = run(spec);
    const auto after = cache_counters(server);
    EXPECT_EQ(s.prefill_sets, 2000u);
    EXPECT_EQ(s.overall.totals.hits, 5000u);
    EXPECT_EQ(after.cmd_set - before.cmd_set, s.prefill_sets);
    EXPECT_GT(s.overall.totals.bytes_in, 5000u * 16);
}

TEST(AsyncEngine, TimedPhasesAndOpenModelCountExactly) {
    MemcachedServer server;
    const auto before = cache_counters(server);
    const auto s = run(async_spec({server.endpoint()}, "ratio", "text", 2,
                                  {{{"duration_s", 0.5}, {"concurrency", 3}},
                                   {{"duration_s", 1}, {"rate", 2000}, {"concurrency", 4}},
                                   {{"ops", 400}, {"concurrency", 7}}}));
    const auto after = cache_counters(server);
    ASSERT_EQ(s.phases.size(), 3u);
    // Every op the open phase planned is sent or, if the generator fell behind, dropped.
    EXPECT_EQ(s.phases[1].totals.total_ops() + s.phases[1].totals.dropped, 2000u);
    EXPECT_EQ(s.phases[2].totals.total_ops(), 400u);
    EXPECT_EQ(op_count(s, "get"), after.cmd_get - before.cmd_get);
    EXPECT_EQ(op_count(s, "set"), after.cmd_set - before.cmd_set);
    EXPECT_EQ(s.overall.totals.total_errors(), 0u);
}

// 2000/s, then 4000/s on an idle memcached: each phase's ops are exactly its plan, counted in
// that phase and nowhere else, and the server counted each of them.
TEST(AsyncEngine, PhaseChangeCountsEachPhasesOpsExactly) {
    MemcachedServer server;
    const auto before = cache_counters(server);
    Samples samples;
    const auto s = run(async_spec({server.endpoint()}, "ratio", "text", 4,
                                  {{{"duration_s", 3}, {"rate", 2000}, {"concurrency", 4}},
                                   {{"duration_s", 3}, {"rate", 4000}, {"concurrency", 4}}}),
                       &samples);
    const auto after = cache_counters(server);
    ASSERT_EQ(s.phases.size(), 2u);
    const uint64_t planned[] = {6000, 12000};
    for (size_t p = 0; p < 2; ++p) {
        const auto& t = s.phases[p].totals;
        EXPECT_EQ(t.total_ops() + t.dropped, planned[p]) << "phase " << p + 1;
        EXPECT_EQ(t.total_errors(), 0u);
    }
    EXPECT_EQ(op_count(s, "get") + op_count(s, "set"),
              after.cmd_get - before.cmd_get + after.cmd_set - before.cmd_set);
    // The start opened the connections before the clock: the first tick has all four and
    // sent without an error.
    const auto ticks = samples.take();
    ASSERT_GE(ticks.size(), 2u);
    EXPECT_EQ(ticks[0].connections, 4);
    EXPECT_GT(ticks[0].sent, 0u);
    EXPECT_EQ(ticks[0].total_errors(), 0u);
}

// The rate raised from 1000/s to 2000/s a second into a 3 s phase (live rate control): the
// phase stays one phase, its ops are those the two rates planned over their own times, the
// next phase is untouched, and memcached counted every op.
TEST(AsyncEngine, LiveRateChangeKeepsOnePhaseAndItsPlan) {
    MemcachedServer server;
    const auto before = cache_counters(server);
    const auto parsed =
        parse_spec(async_spec({server.endpoint()}, "ratio", "text", 4,
                              {{{"duration_s", 3}, {"rate", 1000}, {"concurrency", 4}},
                               {{"duration_s", 1}, {"rate", 500}, {"concurrency", 4}}}));
    ASSERT_TRUE(parsed) << parsed.error_text();
    RunController controller(*parsed.spec, make_engine(*parsed.spec));
    struct Raise : RunObserver {
        RunController* controller = nullptr;
        bool asked = false;
        bool accepted = false;
        std::vector<IntervalSample> samples;
        std::vector<RunEvent> events;
        void on_sample(const IntervalSample& s) override {
            samples.push_back(s);
            if (!asked && s.t_ms >= 1000) {
                asked = true;
                accepted = controller->change_rate(2000);
            }
        }
        void on_event(const RunEvent& e) override { events.push_back(e); }
    } raise;
    raise.controller = &controller;
    controller.add_observer(&raise);
    const auto s = controller.run();
    const auto after = cache_counters(server);
    ASSERT_TRUE(raise.accepted);
    ASSERT_EQ(s.phases.size(), 2u);
    const auto change = std::find_if(raise.events.begin(), raise.events.end(),
                                     [](const RunEvent& e) { return e.kind == "rate"; });
    ASSERT_NE(change, raise.events.end());
    EXPECT_EQ(change->text, "rate changed from 1000/s to 2000/s for the rest of phase 1");
    const double at_s = double(change->t_ms) / 1000;
    EXPECT_GE(at_s, 1.0);
    EXPECT_LT(at_s, 1.5);
    // What the two rates planned, each over its own part of the phase (± the ms the event's
    // time is rounded to).
    const double planned = 1000 * at_s + 2000 * (3 - at_s);
    const auto& first = s.phases[0].totals;
    EXPECT_NEAR(double(first.total_ops() + first.dropped), planned, 4);
    EXPECT_EQ(s.phases[1].totals.total_ops() + s.phases[1].totals.dropped, 500u);
    EXPECT_EQ(s.overall.totals.total_errors(), 0u);
    EXPECT_EQ(op_count(s, "get") + op_count(s, "set"),
              after.cmd_get - before.cmd_get + after.cmd_set - before.cmd_set);
    // The plan the ticks carry follows the change.
    for (const auto& tick : raise.samples) {
        if (tick.phase != 0 || tick.drain || tick.interval_ms <= 0 || tick.sent == 0) continue;
        const double mid_s = double(tick.t_ms - tick.interval_ms / 2) / 1000;
        // A tick closed late, its middle past the phase's 3 s (on the phase's own clock,
        // a few ms behind the run's), plans nothing: its sends are late ones.
        if (mid_s > 3 - 0.05) continue;
        if (mid_s < at_s - 0.01) {
            EXPECT_EQ(tick.planned_rate, 1000) << tick.t_ms;
        } else if (mid_s > at_s + 0.01) {
            EXPECT_EQ(tick.planned_rate, 2000) << tick.t_ms;
        }
    }
}

// memcached frozen for the last second of a 2 s phase: the ops the phase could not send are
// dropped, the ones stuck in flight end (as replies or timeouts) in that phase, and the next
// phase holds only its own.
TEST(AsyncEngine, OverloadedPhaseKeepsItsOpsToItself) {
    MemcachedServer server;
    struct Freezer : RunObserver {
        MemcachedServer& server;
        bool frozen = false;
        int64_t frozen_at_ms = 0;
        explicit Freezer(MemcachedServer& s) : server(s) {}
        void on_sample(const IntervalSample& s) override {
            if (!frozen && s.phase == 0 && s.t_ms >= 1000) {
                server.pause();
                frozen = true;
                frozen_at_ms = s.t_ms;
            }
        }
        void on_event(const RunEvent& e) override {
            if (frozen && e.kind == "phase") server.resume();
        }
    } freezer(server);
    auto parsed = parse_spec(async_spec({server.endpoint()}, "get-only", "text", 2,
                                        {{{"duration_s", 2}, {"rate", 1000}, {"concurrency", 2}},
                                         {{"duration_s", 1}, {"rate", 1000}, {"concurrency", 2}}}));
    ASSERT_TRUE(parsed) << parsed.error_text();
    RunController controller(*parsed.spec, make_engine(*parsed.spec));
    controller.add_observer(&freezer);
    const auto s = controller.run();
    server.resume();
    ASSERT_TRUE(freezer.frozen);
    ASSERT_EQ(s.phases.size(), 2u);
    const auto& first = s.phases[0].totals;
    const auto& second = s.phases[1].totals;
    EXPECT_EQ(first.total_ops() + first.dropped, 2000u);
    // Frozen for the phase's last half second or more, the two connections' windows fill
    // and the rest of the phase's ops cannot go (a loaded machine may freeze it later).
    if (freezer.frozen_at_ms <= 1500) {
        EXPECT_GT(first.dropped, 0u) << freezer.frozen_at_ms;
    }
    EXPECT_EQ(second.total_ops() + second.dropped, 1000u);
    EXPECT_LT(second.dropped, 100u);
}

TEST(AsyncEngine, SeveralServersShareTheKeysAndTheCounts) {
    MemcachedServer a, b;
    const auto before_a = cache_counters(a), before_b = cache_counters(b);
    const auto s = run(async_spec({a.endpoint(), b.endpoint()}, "ratio", "meta", 4,
                                  {{{"ops", 4000}, {"concurrency", 4}}}));
    const auto after_a = cache_counters(a), after_b = cache_counters(b);
    const uint64_t gets_a = after_a.cmd_get - before_a.cmd_get;
    const uint64_t gets_b = after_b.cmd_get - before_b.cmd_get;
    EXPECT_GT(gets_a, 500u);
    EXPECT_GT(gets_b, 500u);
    EXPECT_EQ(op_count(s, "get"), gets_a + gets_b);
    EXPECT_EQ(op_count(s, "set"),
              after_a.cmd_set - before_a.cmd_set + after_b.cmd_set - before_b.cmd_set);
    EXPECT_EQ(s.overall.totals.hits,
              after_a.get_hits - before_a.get_hits + after_b.get_hits - before_b.get_hits);
}

TEST(AsyncEngine, IsTheDefaultDriverExceptForTheBinaryProtocol) {
    MemcachedServer server;
    auto spec =
        async_spec({server.endpoint()}, "ratio", "meta", 8, {{{"ops", 2000}, {"concurrency", 4}}});
    spec["cache"].erase("driver");
    const auto parsed = parse_spec(spec);
    ASSERT_TRUE(parsed) << parsed.error_text();
    EXPECT_EQ(effective_driver(*parsed.spec->cache), CacheDriver::async);
    EXPECT_EQ(to_json(*parsed.spec)["cache"]["driver"], "async");
    const auto before = cache_counters(server);
    const auto s = run(spec);
    EXPECT_EQ(op_count(s, "get") + op_count(s, "set"), 2000u);
    EXPECT_EQ(op_count(s, "get"), cache_counters(server).cmd_get - before.cmd_get);

    spec["cache"]["protocol"] = "binary";
    spec["cache"]["pipeline"] = 1;
    const auto binary = parse_spec(spec);
    ASSERT_TRUE(binary) << binary.error_text();
    EXPECT_EQ(effective_driver(*binary.spec->cache), CacheDriver::libmemcached);
}

TEST(AsyncEngine, SpecNamesWhatTheDriverCannotDo) {
    const json base = async_spec({"127.0.0.1:1"}, "ratio", "binary", 1, {{{"ops", 1}}});
    auto errors = [](const json& j) { return parse_spec(j).error_text(); };
    EXPECT_NE(errors(base).find("cache.protocol: \"binary\" needs \"driver\": \"libmemcached\""),
              std::string::npos);
    json piped = base;
    piped["cache"].erase("driver");
    piped["cache"]["pipeline"] = 4;
    EXPECT_NE(errors(piped).find("cache.pipeline:"), std::string::npos);
    json meta = base;
    meta["cache"]["driver"] = "libmemcached";
    meta["cache"]["protocol"] = "meta";
    EXPECT_NE(errors(meta).find("cache.protocol: \"meta\" needs \"driver\": \"async\""),
              std::string::npos);
}

// memcached stopped mid-run: errors per tick, the run goes on; started again on the same
// port: the connections come back and the errors stop.
TEST(AsyncEngine, ServerStoppedAndRestartedMidRun) {
    MemcachedServer server;
    Samples samples;
    size_t stopped_at = 0, started_at = 0;
    // The outage follows the run, not the clock: it begins after six ticks of load.
    std::thread chaos([&] {
        wait_until([&] { return samples.take().size() >= 6; }, std::chrono::seconds(20));
        stopped_at = samples.take().size();
        server.stop();
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // the outage's length
        started_at = samples.take().size();
        server.start();
    });
    const auto s = run(async_spec({server.endpoint()}, "cache-aside", "text", 4,
                                  {{{"duration_s", 5}, {"concurrency", 6}}}),
                       &samples);
    chaos.join();
    EXPECT_EQ(s.status, RunStatus::completed);
    const auto ticks = samples.take();
    ASSERT_GE(ticks.size(), 16u);
    ASSERT_GT(started_at, stopped_at);
    uint64_t errors_during_outage = 0;
    for (size_t i = stopped_at; i < std::min(started_at + 1, ticks.size()); ++i)
        errors_during_outage += ticks[i].total_errors();
    EXPECT_GT(errors_during_outage, 0u);
    EXPECT_GT(s.overall.totals.errors.count("connection"), 0u);
    const auto& last = ticks.back();
    EXPECT_GT(last.ops.at("get").count, 0u);
    EXPECT_EQ(last.total_errors(), 0u);
}

// memcached frozen (SIGSTOP) mid-run: replies stop coming, requests fail as timeouts after
// cache.timeout_ms; thawed: the connections are made again and the run carries on.
TEST(AsyncEngine, ServerThatStopsAnsweringTimesOut) {
    MemcachedServer server;
    Samples samples;
    auto spec = async_spec({server.endpoint()}, "ratio", "meta", 2,
                           {{{"duration_s", 3.5}, {"concurrency", 3}}});
    spec["cache"]["timeout_ms"] = 200;
    std::thread chaos([&] {
        wait_until([&] { return samples.take().size() >= 4; }, std::chrono::seconds(20));
        server.pause();
        std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // the freeze's length
        server.resume();
    });
    const auto s = run(spec, &samples);
    chaos.join();
    EXPECT_EQ(s.status, RunStatus::completed);
    EXPECT_GT(s.overall.totals.errors.count("timeout"), 0u);
    const auto ticks = samples.take();
    ASSERT_FALSE(ticks.empty());
    EXPECT_GT(ticks.back().total_ops(), 0u);
    EXPECT_EQ(ticks.back().total_errors(), 0u);
}

// The most bytes queued to be sent on any IPv4 socket to `port`, as the kernel counts them.
uint64_t largest_send_queue(uint16_t port) {
    uint64_t largest = 0;
    for (const TcpRow& row : tcp_table())
        if (row.remote_port == port) largest = std::max(largest, row.send_queue);
    return largest;
}

// memcached frozen before the run, so the connections' socket buffers fill and the sends of
// 400 KB values go out in parts, waiting for the socket; thawed once a send queue holds
// megabytes: every set arrives once and whole (memcached counts each, and a byte sent twice
// or lost would be a protocol error it answers), and none fails.
TEST(AsyncEngine, SendsThatTheSocketTakesInPartsArriveWhole) {
    MemcachedServer server(128);
    const auto before = cache_counters(server);
    auto spec = async_spec({server.endpoint()}, "set-only", "text", 16,
                           {{{"ops", 300}, {"concurrency", 2}}});
    spec["cache"]["value_size"] = {{"min", 400'000}, {"max", 400'000}};
    spec["cache"]["keys"]["count"] = 32;
    spec["cache"]["threads"] = 1;
    spec["cache"]["timeout_ms"] = 60'000;
    server.pause();
    bool filled = false;
    std::thread thaw([&] {
        filled = wait_until([&] { return largest_send_queue(server.port()) > 2'000'000; },
                            std::chrono::seconds(30));
        server.resume();
    });
    const auto s = run(spec);
    thaw.join();
    EXPECT_TRUE(filled) << "no send queue to memcached held 2 MB while it was frozen";
    const auto after = cache_counters(server);
    ASSERT_EQ(s.status, RunStatus::completed) << s.error;
    EXPECT_EQ(s.overall.totals.total_errors(), 0u);
    EXPECT_EQ(op_count(s, "set"), 300u);
    EXPECT_EQ(after.cmd_set - before.cmd_set, 300u);
}

}  // namespace
}  // namespace perflab::test
