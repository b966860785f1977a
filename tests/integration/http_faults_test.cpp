// SPDX-License-Identifier: MIT
// Faults from our own test server: every failure lands in the error set or the status codes,
// and the run goes on.
#include <gtest/gtest.h>

#include <thread>

#include "http_run_helpers.h"
#include "http_test_server.h"
#include "process.h"

namespace perflab::test {

namespace {

using Mode = HttpTestServer::Mode;
using std::chrono::milliseconds;

TEST(HttpFaults, ServerDownAtStartThenUp) {
    const uint16_t port = free_port();
    std::unique_ptr<HttpTestServer> server;
    std::thread starter([&] {
        std::this_thread::sleep_for(milliseconds(700));
        server = std::make_unique<HttpTestServer>(port);
    });
    const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/";
    const auto run = run_http(http_spec(url, {{{"rate", 100}, {"duration_s", 1.5}}}));
    starter.join();
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(run.summary.status, RunStatus::completed);
    EXPECT_EQ(t.total_ops(), 150u);
    EXPECT_GT(error_count(t, "connection refused"), 40u);
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
    EXPECT_GT(t.total_ops(), 0u);
    EXPECT_EQ(error_count(t, "connection refused"), t.total_ops());
    // Four connections retrying at most every 100 ms after a few failures, not in a hot loop.
    EXPECT_LT(t.total_ops(), 400u);
}

TEST(HttpFaults, ResetsEarlyClosesGarbageAnd500s) {
    HttpTestServer server;
    std::thread modes([&] {
        for (Mode m : {Mode::reset, Mode::close_early, Mode::garbage, Mode::error_500}) {
            std::this_thread::sleep_for(milliseconds(400));
            server.set_mode(m);
        }
    });
    const auto run = run_http(http_spec(server.url(), {{{"rate", 200}, {"duration_s", 2}}}));
    modes.join();
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(run.summary.status, RunStatus::completed);
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
    EXPECT_LE(server.requests(), t.total_ops() + 2 * uint64_t(run.max_connections()));
}

TEST(HttpFaults, ClosedModelSurvivesTheSameFaults) {
    HttpTestServer server;
    server.set_delay_ms(2);
    std::thread modes([&] {
        for (Mode m : {Mode::reset, Mode::garbage, Mode::close_early, Mode::ok}) {
            std::this_thread::sleep_for(milliseconds(250));
            server.set_mode(m);
        }
    });
    const auto run =
        run_http(http_spec(server.url(), {{{"concurrency", 6}, {"duration_s", 1.25}}}));
    modes.join();
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(run.summary.status, RunStatus::completed);
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
    EXPECT_GE(t.latency().min(), 100'000);
    EXPECT_LT(t.latency().max(), 400'000);  // cut at the timeout, not at the reply
}

TEST(HttpFaults, KilledServerMidRun) {
    auto server = std::make_unique<HttpTestServer>();
    server->set_delay_ms(50);
    std::thread killer([&] {
        std::this_thread::sleep_for(milliseconds(500));
        server->kill();
    });
    const auto run = run_http(http_spec(server->url(), {{{"rate", 200}, {"duration_s", 1}}}));
    killer.join();
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(run.summary.status, RunStatus::completed);
    EXPECT_EQ(t.total_ops(), 200u);
    EXPECT_GT(error_count(t, "connection refused"), 50u);
    // Requests in flight when it died end (sent once more on a new connection, refused),
    // never lost.
    uint64_t errors = 0;
    for (const auto& [text, n] : t.errors)
        errors += n;
    EXPECT_EQ(errors + status_count(t, 200), t.total_ops());
}

}  // namespace
}  // namespace perflab::test
