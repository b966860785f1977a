// SPDX-License-Identifier: MIT
// The HTTP engine against a real nginx: what the report counts is what nginx logged.
#include <gtest/gtest.h>

#include <thread>

#include "http_run_helpers.h"
#include "nginx_server.h"

namespace perflab::test {
namespace {

using nlohmann::json;

TEST(HttpNginx, OpenModelCountsMatchTheAccessLog) {
    NginxServer nginx;
    const auto run =
        run_http(http_spec(nginx.url("/static.bin"), {{{"rate", 200}, {"duration_s", 2}}}));
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(run.summary.status, RunStatus::completed);
    EXPECT_EQ(t.total_ops(), 400u);
    EXPECT_EQ(nginx.wait_for_requests(t.total_ops()), t.total_ops());
    EXPECT_EQ(status_count(t, 200), 400u);
    EXPECT_EQ(t.bytes_in, 400u * NginxServer::kStaticBytes);
    EXPECT_EQ(t.sent, 400u);
    EXPECT_TRUE(t.errors.empty());
}

TEST(HttpNginx, ClosedModelCountsMatchTheAccessLog) {
    NginxServer nginx;
    const auto run =
        run_http(http_spec(nginx.url("/ok"), {{{"concurrency", 8}, {"duration_s", 1.5}}}));
    const auto& t = run.summary.overall.totals;
    EXPECT_GT(t.total_ops(), 100u);
    EXPECT_EQ(nginx.wait_for_requests(t.total_ops()), t.total_ops());
    EXPECT_EQ(status_count(t, 200), t.total_ops());
    EXPECT_LE(nginx.connections(), 8u);
}

// Weights 5:3:2 over 10 000 requests: nginx's log has each target's share (to the request:
// the picker is a smooth weighted round-robin, exact over every 10 picks of each worker).
TEST(HttpNginx, TargetWeightsSplitTheRequests) {
    NginxServer nginx;
    auto spec = http_spec(nginx.url("/ok"), {{{"concurrency", 8}, {"ops", 10'000}}});
    spec["http"]["targets"] = {{{"url", nginx.url("/ok")}, {"weight", 5}},
                               {{"url", nginx.url("/static.bin")}, {"weight", 3}},
                               {{"url", nginx.url("/missing")}, {"weight", 2}}};
    const auto run = run_http(spec);
    ASSERT_EQ(run.summary.overall.totals.total_ops(), 10'000u);
    ASSERT_EQ(nginx.wait_for_requests(10'000), 10'000u);
    const std::pair<const char*, double> shares[] = {
        {"/ok", 0.5}, {"/static.bin", 0.3}, {"/missing", 0.2}};
    for (const auto& [path, share] : shares) {
        EXPECT_NEAR(double(nginx.requests_to(path)), share * 10'000, 0.02 * 10'000) << path;
        const auto& op = run.summary.overall.totals.ops.at("GET " + nginx.url(path));
        EXPECT_EQ(op.count, nginx.requests_to(path)) << path;
    }
    EXPECT_EQ(status_count(run.summary.overall.totals, 404), nginx.requests_to("/missing"));
}

TEST(HttpNginx, CountLimitedPhaseSendsExactlyItsOps) {
    NginxServer nginx;
    const auto run = run_http(http_spec(nginx.url("/ok"), {{{"concurrency", 5}, {"ops", 333}}}));
    EXPECT_EQ(run.summary.overall.totals.total_ops(), 333u);
    EXPECT_EQ(nginx.wait_for_requests(333), 333u);
}

TEST(HttpNginx, IdleConnectionsTheServerClosedAreNotUsed) {
    // nginx closes a connection idle for 100 ms; requests leave every 250 ms on one
    // connection, so each finds its connection closed by the server while it waited.
    NginxServer nginx(false, 100);
    const auto run = run_http(http_spec(nginx.url("/ok"), {{{"rate", 4}, {"duration_s", 2.5}}},
                                        {{"threads", 1}, {"max_connections", 1}}));
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(t.total_ops(), 10u);
    EXPECT_TRUE(t.errors.empty()) << t.errors.begin()->first;
    EXPECT_EQ(status_count(t, 200), 10u);
    EXPECT_EQ(nginx.wait_for_requests(10), 10u);
    // Mostly one connection per request; fewer when a loaded machine sent two closer together
    // than nginx's 100 ms (the second then found its connection still open).
    EXPECT_GE(nginx.connections(), 2u);
    EXPECT_LE(nginx.connections(), 10u);
}

TEST(HttpNginx, PhaseChangesKeepConnectionsOpen) {
    NginxServer nginx;
    const json phases = {{{"rate", 100}, {"duration_s", 1}},
                         {{"concurrency", 4}, {"duration_s", 1}},
                         {{"rate", 150}, {"duration_s", 1}}};
    const auto run = run_http(http_spec(nginx.url("/ok"), phases, {{"max_connections", 4}}));
    const auto& t = run.summary.overall.totals;
    ASSERT_EQ(run.summary.phases.size(), 3u);
    EXPECT_EQ(run.summary.phases[0].totals.total_ops(), 100u);
    EXPECT_EQ(run.summary.phases[2].totals.total_ops(), 150u);
    EXPECT_EQ(nginx.wait_for_requests(t.total_ops()), t.total_ops());
    // Two workers with at most 4 connections between them, opened once for the whole run.
    EXPECT_LE(nginx.connections(), 4u);
}

TEST(HttpNginx, ServerKilledMidRunShowsErrorsAndTheRunGoesOn) {
    NginxServer nginx;
    // Stopped halfway through the run's requests, as nginx logs them.
    std::thread killer([&] {
        nginx.wait_for_requests(200, 10'000);
        nginx.stop();
    });
    const auto run = run_http(http_spec(nginx.url("/ok"), {{{"rate", 200}, {"duration_s", 2}}},
                                        {{"timeout_ms", 500}, {"connect_timeout_ms", 500}}));
    killer.join();
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(run.summary.status, RunStatus::completed);
    EXPECT_EQ(t.total_ops(), 400u);
    EXPECT_GT(status_count(t, 200), 150u);
    EXPECT_GT(error_count(t, "connection refused"), 50u);
    EXPECT_EQ(t.total_errors(), t.total_ops() - status_count(t, 200));
}

TEST(HttpNginx, HttpsWithVerificationOffAndOn) {
    NginxServer nginx(/*tls=*/true);
    const json phase = {{{"concurrency", 2}, {"ops", 50}}};
    const auto off = run_http(http_spec(nginx.url("/ok"), phase, {{"tls_verify", false}}));
    EXPECT_EQ(status_count(off.summary.overall.totals, 200), 50u);
    EXPECT_LE(nginx.connections(), 2u);
    // The certificate is self-signed: with verification on, every handshake fails as "tls".
    const auto on = run_http(http_spec(nginx.url("/ok"), {{{"rate", 20}, {"duration_s", 0.5}}}));
    EXPECT_EQ(error_count(on.summary.overall.totals, "tls"), 10u);
    EXPECT_EQ(nginx.wait_for_requests(50), 50u);
}

}  // namespace
}  // namespace perflab::test
