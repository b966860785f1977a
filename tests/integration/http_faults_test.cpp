// SPDX-License-Identifier: MIT
// Faults from our own test server: every failure lands in the error set or the status codes,
// and the run goes on.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <thread>

#include "http_run_helpers.h"
#include "http_test_server.h"
#include "process.h"

namespace perflab::test {

namespace {

using Mode = HttpTestServer::Mode;

// The errors of one kind a run has had so far, tick by tick.
class ErrorWatch : public RunObserver {
  public:
    explicit ErrorWatch(std::string kind) : kind_(std::move(kind)) {}
    void on_sample(const IntervalSample& s) override { seen_ += error_count(s, kind_); }
    uint64_t seen() const { return seen_.load(); }

  private:
    std::string kind_;
    std::atomic<uint64_t> seen_{0};
};

// Sets the server's modes in turn, each once the server has read `every` more requests; stops
// waiting when the run is over. Faults follow the load, not the clock.
class ModeSchedule {
  public:
    ModeSchedule(HttpTestServer& server, std::vector<Mode> modes, uint64_t every)
        : thread_([this, &server, modes = std::move(modes), every] {
              uint64_t at = 0;
              for (const Mode m : modes) {
                  at += every;
                  wait_until([&] { return server.requests() >= at || over_.load(); });
                  if (over_.load()) return;
                  server.set_mode(m);
              }
          }) {}
    ~ModeSchedule() {
        over_ = true;
        thread_.join();
    }

  private:
    std::atomic<bool> over_{false};
    std::thread thread_;
};

TEST(HttpFaults, ServerDownAtStartThenUp) {
    const uint16_t port = free_port();
    ErrorWatch refused("connection refused");
    std::atomic<bool> over{false};
    std::unique_ptr<HttpTestServer> server;
    // Up once the run has been refused 50 times, a third of its requests.
    std::thread starter([&] {
        wait_until([&] { return refused.seen() >= 50 || over.load(); });
        if (!over.load()) server = std::make_unique<HttpTestServer>(port);
    });
    const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/";
    auto spec = http_spec(url, {{{"rate", 100}, {"duration_s", 1.5}}});
    spec["tick_ms"] = 100;
    const auto run = run_http(spec, &refused);
    over = true;
    starter.join();
    ASSERT_NE(server, nullptr) << "the run was not refused 50 times";
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(run.summary.status, RunStatus::completed);
    EXPECT_EQ(t.total_ops(), 150u);
    EXPECT_GE(error_count(t, "connection refused"), 50u);
    EXPECT_GT(status_count(t, 200), 40u);
    EXPECT_EQ(status_count(t, 200), server->requests());
}

TEST(HttpFaults, ClosedModelBacksOffFromARefusingServer) {
    const std::string url = "http://127.0.0.1:" + std::to_string(free_port()) + "/";
    const auto run = run_http(http_spec(url, {{{"concurrency", 4}, {"duration_s", 1}}}));
    const auto& t = run.summary.overall.totals;
    // Nothing was ever answered: the run failed, and says why.
    EXPECT_EQ(run.summary.status, RunStatus::failed);
    EXPECT_NE(run.summary.error.find("connection refused"), std::string::npos) << run.summary.error;
    // Nothing listens, so nothing server-side counts: every connection tried at least once.
    EXPECT_GE(t.total_ops(), 4u);
    EXPECT_EQ(error_count(t, "connection refused"), t.total_ops());
    // Four connections retrying at most every 100 ms after a few failures, not in a hot loop.
    EXPECT_LT(t.total_ops(), 400u);
}

TEST(HttpFaults, ResetsEarlyClosesGarbageAnd500s) {
    HttpTestServer server;
    std::optional<HttpRun> run;
    {
        // 400 requests: 80 in each of the five modes.
        ModeSchedule modes(server, {Mode::reset, Mode::close_early, Mode::garbage, Mode::error_500},
                           80);
        run = run_http(http_spec(server.url(), {{{"rate", 200}, {"duration_s", 2}}}));
    }
    const auto& t = run->summary.overall.totals;
    EXPECT_EQ(run->summary.status, RunStatus::completed);
    EXPECT_EQ(t.total_ops(), 400u);
    EXPECT_GT(status_count(t, 200), 40u);
    EXPECT_GT(status_count(t, 500), 40u);
    EXPECT_GT(error_count(t, "connection reset"), 10u);
    EXPECT_GT(error_count(t, "eof"), 10u);
    EXPECT_GT(error_count(t, "parse error"), 10u);
    uint64_t errors = 0;
    for (const auto& [text, n] : t.errors)
        errors += n;
    EXPECT_EQ(errors + status_count(t, 200) + status_count(t, 500), t.total_ops());
    // A request on a kept-alive connection that fails before any response byte goes once
    // more on a new connection (an idle close looks the same to a client): when the server
    // turns to resets or early closes, each connection it had kept alive meets that once.
    EXPECT_GE(server.requests(), t.total_ops());
    EXPECT_LE(server.requests(), t.total_ops() + 2 * uint64_t(run->max_connections()));
}

TEST(HttpFaults, ClosedModelSurvivesTheSameFaults) {
    HttpTestServer server;
    server.set_delay_ms(2);
    std::optional<HttpRun> run;
    {
        // 300 requests: 50 in each fault, 50 fine before them and 100 after.
        ModeSchedule modes(server, {Mode::reset, Mode::garbage, Mode::close_early, Mode::ok}, 50);
        run = run_http(http_spec(server.url(), {{{"concurrency", 6}, {"ops", 300}}}));
    }
    const auto& t = run->summary.overall.totals;
    EXPECT_EQ(run->summary.status, RunStatus::completed);
    EXPECT_EQ(t.total_ops(), 300u);
    EXPECT_GT(status_count(t, 200), 100u);
    EXPECT_GT(t.errors.size(), 1u);
    // As above: at most one resend per kept-alive connection when the faults begin.
    EXPECT_GE(server.requests(), t.total_ops());
    EXPECT_LE(server.requests(), t.total_ops() + 6);
}

TEST(HttpFaults, SlowRepliesTimeOut) {
    HttpTestServer server;
    server.set_delay_ms(400);
    const auto run = run_http(
        http_spec(server.url(), {{{"rate", 50}, {"duration_s", 0.5}}}, {{"timeout_ms", 100}}));
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(t.total_ops(), 25u);
    EXPECT_EQ(error_count(t, "timeout"), 25u);
    // Timed out after the server read them, not lost before.
    EXPECT_TRUE(wait_until([&] { return server.requests() >= 25; })) << server.requests();
    EXPECT_EQ(server.requests(), 25u);
    // No response: a timeout is an error, its 100 ms no latency.
    EXPECT_EQ(t.latency().count(), 0u);
}

TEST(HttpFaults, KilledServerMidRun) {
    auto server = std::make_unique<HttpTestServer>();
    server->set_delay_ms(50);
    std::atomic<bool> over{false};
    uint64_t read_before_kill = 0;
    // Killed halfway through the run's requests, as the server counts them.
    std::thread killer([&] {
        wait_until([&] { return server->requests() >= 100 || over.load(); });
        read_before_kill = server->requests();
        server->kill();
    });
    const auto run = run_http(http_spec(server->url(), {{{"rate", 200}, {"duration_s", 1}}}));
    over = true;
    killer.join();
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(run.summary.status, RunStatus::completed);
    EXPECT_EQ(t.total_ops(), 200u);
    EXPECT_GE(read_before_kill, 100u);
    EXPECT_GT(status_count(t, 200), 0u);
    EXPECT_LE(status_count(t, 200), read_before_kill);
    EXPECT_GT(error_count(t, "connection refused"), 50u);
    // Requests in flight when it died end (sent once more on a new connection, refused),
    // never lost.
    uint64_t errors = 0;
    for (const auto& [text, n] : t.errors)
        errors += n;
    EXPECT_EQ(errors + status_count(t, 200), t.total_ops());
    // A refused request got no response and has no latency: the histogram holds the answered
    // ones only, none faster than the server's 50-ms hold (no 0-µs sample from a refusal).
    const Histogram latency = t.latency();
    EXPECT_EQ(latency.count(), status_count(t, 200));
    EXPECT_GE(latency.min(), 50'000);
    for (const auto& tick : run.samples) {
        uint64_t answered = 0;
        for (const auto& [code, n] : tick.status_codes)
            answered += n;
        EXPECT_EQ(tick.latency().count(), answered) << "tick at " << tick.t_ms << " ms";
    }
}

}  // namespace
}  // namespace perflab::test
