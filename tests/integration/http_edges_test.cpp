// SPDX-License-Identifier: MIT
// The edges of a run against our own test server, whose log says what really happened: a
// phase change, a stop with requests in flight, vegeta's attack and wait, a server that
// closes kept-alive connections, and one that sends interim responses.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "http_run_helpers.h"
#include "http_test_server.h"
#include "model/http_report.h"
#include "process.h"
#include "silent_server.h"

namespace perflab::test {
namespace {

using std::chrono::duration;
using std::chrono::milliseconds;

uint64_t ok_count(const IntervalSample& t) {
    uint64_t n = 0;
    for (const auto& [code, count] : t.status_codes)
        if (code >= 200 && code <= 399) n += count;
    return n;
}

// 50/s, then 100/s, against a server that always answers in 300 ms, with connections to
// spare: the second phase starts while the first one's replies still arrive (it does not wait
// for them), each phase sends its plan and counts its own replies, and the first phase's
// replies still due come in one drain after its end.
TEST(HttpEdges, PhaseChangeAgainstASlowServerInventsNoStall) {
    HttpTestServer server;
    server.set_delay_ms(300);
    auto spec = http_spec(server.url(),
                          {{{"rate", 50}, {"duration_s", 2}}, {{"rate", 100}, {"duration_s", 2}}});
    spec["tick_ms"] = 250;
    // One worker is plenty for 100/s; a second would only compete with this process's test
    // server and controller for the machine's two cores, and a 1 ms scheduling delay is a
    // late send.
    spec["http"]["threads"] = 1;
    const auto run = run_http(spec);
    ASSERT_EQ(run.summary.phases.size(), 2u);
    const uint64_t planned[] = {100, 200};
    for (int p = 0; p < 2; ++p) {
        const auto& t = run.summary.phases[size_t(p)].totals;
        SCOPED_TRACE("phase " + std::to_string(p + 1));
        EXPECT_EQ(ok_count(t), planned[p]);  // every reply counted in its own phase
        EXPECT_EQ(t.total_errors(), 0u);
        EXPECT_EQ(t.dropped, 0u);
    }
    EXPECT_EQ(server.requests(), 300u);
    for (int p = 0; p < 2; ++p) {
        std::vector<IntervalSample> ticks, drains;
        for (const auto& s : run.samples)
            if (s.phase == p) (s.drain ? drains : ticks).push_back(s);
        SCOPED_TRACE("phase " + std::to_string(p + 1));
        uint64_t sent = 0, answered = 0;
        for (const auto& tick : ticks) {
            sent += tick.sent;
            answered += tick.total_ops();
        }
        EXPECT_EQ(sent, planned[p]);
        // The replies of the phase's last 300 ms arrive after its end: in one drain sample.
        // (A controller whose phase-end tick came over 300 ms late, on a loaded machine, found
        // them all in; one a few ms late has a drain a few ms shorter: 278 ms was seen.)
        ASSERT_LE(drains.size(), 1u);
        uint64_t drained = 0;
        for (const auto& drain : drains) {
            EXPECT_EQ(drain.sent, 0u);
            EXPECT_GT(drain.total_ops(), 0u);
            EXPECT_GT(drain.interval_ms, 0);
            drained += drain.total_ops();
        }
        EXPECT_EQ(answered + drained, planned[p]);
    }
    // The server read the second phase's first request before it wrote the first phase's
    // last reply: the phase change did not wait for the replies still due (that wait held
    // sends back and showed 586 ms at p99).
    const auto exchanges = server.exchanges();
    ASSERT_EQ(exchanges.size(), 300u);
    auto last_reply = exchanges.front().replied;
    for (size_t i = 0; i < 100; ++i)
        last_reply = std::max(last_reply, exchanges[i].replied);
    EXPECT_LT(exchanges[100].received, last_reply);
}

// The connections of the first phase are opened before its clock starts: the server has
// accepted all of them before it reads the first request, so no request is charged a connect.
TEST(HttpEdges, FirstPhaseConnectionsOpenBeforeTheClock) {
    HttpTestServer server;
    const auto run = run_http(http_spec(server.url(), {{{"concurrency", 20}, {"ops", 400}}}));
    EXPECT_EQ(ok_count(run.summary.overall.totals), 400u);
    EXPECT_EQ(server.connections_before_first_request(), 20u);
    EXPECT_EQ(server.connections(), 20u);
}

// A later phase's lower concurrency bounds the connections kept from a wider one: the rest
// close rather than wait idle for reuse.
TEST(HttpEdges, LaterPhasesBoundHoldsForConnectionsKeptFromAWiderOne) {
    HttpTestServer server;
    server.set_delay_ms(10);
    auto spec = http_spec(server.url(), {{{"concurrency", 20}, {"duration_s", 1}},
                                         {{"rate", 200}, {"concurrency", 4}, {"duration_s", 1}}});
    spec["tick_ms"] = 250;
    const auto run = run_http(spec);
    std::vector<IntervalSample> second;
    for (const auto& s : run.samples)
        if (s.phase == 1) second.push_back(s);
    ASSERT_GE(second.size(), 3u);
    for (size_t i = 1; i < second.size(); ++i)
        EXPECT_LE(second[i].connections, 4) << "t=" << second[i].t_ms;
    EXPECT_EQ(run.summary.phases[1].totals.total_errors(), 0u);
}

// A server that accepts and never completes the TLS handshake: the connection was not made
// within connect_timeout_ms, an error of its own kind, however long timeout_ms is.
TEST(HttpEdges, ConnectTimeoutIsItsOwnKindAndBound) {
    SilentServer silent;
    const auto run = run_http(
        http_spec("https://127.0.0.1:" + std::to_string(silent.port()) + "/",
                  {{{"concurrency", 2}, {"ops", 4}}},
                  {{"connect_timeout_ms", 200}, {"timeout_ms", 30000}, {"tls_verify", false}}));
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(t.total_ops(), 4u);
    EXPECT_EQ(t.errors.count("connect timeout") ? t.errors.at("connect timeout") : 0, 4u);
    EXPECT_EQ(t.errors.count("timeout"), 0u);
    EXPECT_EQ(t.latency().count(), 0u);                // never connected: no response, no latency
    EXPECT_EQ(run.summary.status, RunStatus::failed);  // nothing was ever answered
}

struct Stopped {
    RunSummary summary;
    uint64_t received = 0;
};

// 50/s against a 300 ms server, stopped (once or twice) when the server has read 60
// requests: about 15 are in flight then.
Stopped stop_mid_run(int stops) {
    HttpTestServer server;
    server.set_delay_ms(300);
    auto parsed = parse_spec(http_spec(server.url(), {{{"rate", 50}, {"duration_s", 30}}}));
    EXPECT_TRUE(parsed) << parsed.error_text();
    RunController controller(*parsed.spec, std::make_unique<HttpEngine>(*parsed.spec));
    std::thread stopper([&] {
        EXPECT_TRUE(wait_until([&] { return server.requests() >= 60; }, std::chrono::seconds(20)));
        for (int i = 0; i < stops; ++i)
            controller.request_stop();
    });
    Stopped out;
    out.summary = controller.run();
    stopper.join();
    out.received = server.requests();
    return out;
}

TEST(HttpEdges, StopWaitsForTheRequestsInFlight) {
    const auto r = stop_mid_run(1);
    const auto& t = r.summary.overall.totals;
    EXPECT_EQ(r.summary.status, RunStatus::stopped);
    EXPECT_GE(t.total_ops(), 60u);
    EXPECT_EQ(t.total_ops(), r.received);  // every request the server read is in the report
    EXPECT_EQ(ok_count(t), t.total_ops());
}

TEST(HttpEdges, SecondStopCountsTheRequestsInFlightAsCancelled) {
    const auto r = stop_mid_run(2);
    const auto& t = r.summary.overall.totals;
    EXPECT_EQ(r.summary.status, RunStatus::stopped);
    EXPECT_EQ(t.total_ops(), r.received);
    const auto cancelled = t.errors.count("cancelled") ? t.errors.at("cancelled") : 0;
    EXPECT_GT(cancelled, 0u);
    EXPECT_EQ(ok_count(t) + cancelled, t.total_ops());
}

// vegeta: attack runs from the first send to the last, wait from the last send to the last
// reply; the server's own log, read and written on loopback, tells both within a few ms.
TEST(HttpEdges, AttackAndWaitFollowVegetaByTheServersLog) {
    HttpTestServer server;
    server.set_delay_ms(300);
    const auto run = run_http(http_spec(server.url(), {{{"rate", 50}, {"duration_s", 1}}}));
    const auto log = server.exchanges();
    ASSERT_EQ(log.size(), 50u);
    auto first = log.front().received, last = log.front().received, replied = log.front().replied;
    for (const auto& e : log) {
        first = std::min(first, e.received);
        last = std::max(last, e.received);
        replied = std::max(replied, e.replied);
    }
    const double server_attack = duration<double>(last - first).count();
    const double server_wait = duration<double>(replied - last).count();
    const auto report = http_report(run.summary.overall);
    // The client sent its first request before the server read it and read the last reply
    // after the server wrote it: its wait and duration hold the server's, however late
    // either side ran. (Its attack has no such bound: the first send may be the late one.)
    EXPECT_GT(report.attack_s, 0);
    EXPECT_GE(report.wait_s, server_wait);
    EXPECT_GE(report.wait_s, 0.3);
    EXPECT_GE(report.duration_s, server_attack + server_wait);
    // vegeta's definitions, exactly: duration = attack + wait, rate over the attack,
    // throughput (successes) over the duration.
    EXPECT_DOUBLE_EQ(report.duration_s, report.attack_s + report.wait_s);
    EXPECT_DOUBLE_EQ(report.rate, 50 / report.attack_s);
    EXPECT_DOUBLE_EQ(report.throughput, 50 / report.duration_s);
}

// A server that closes every kept-alive connection once it answered (as the JDK's server
// does with idle ones, Tomcat after maxKeepAliveRequests): a request that meets such a
// connection goes again on a new one, so the run has no failure the server never saw.
TEST(HttpEdges, ServerClosingKeptAliveConnectionsCostsNoFailures) {
    HttpTestServer server;
    server.set_mode(HttpTestServer::Mode::ok_then_close);
    for (const nlohmann::json& phase : {nlohmann::json{{"rate", 100}, {"duration_s", 1}},
                                        nlohmann::json{{"concurrency", 2}, {"ops", 200}}}) {
        const uint64_t before = server.requests();
        const auto run = run_http(http_spec(server.url(), {phase}));
        const auto& t = run.summary.overall.totals;
        SCOPED_TRACE(phase.dump());
        EXPECT_EQ(t.total_errors(), 0u);
        EXPECT_EQ(ok_count(t), t.total_ops());
        EXPECT_EQ(server.requests() - before, t.total_ops());
    }
}

// A server that sends 103 Early Hints before each response: an interim response is no answer
// to the request. Each request counts the 200 after it, and the next request's answer is its
// own (counted as an interim response, the 103 would leave each 200 to the request after).
TEST(HttpEdges, InterimResponsesAreNotTheAnswer) {
    HttpTestServer server;
    server.set_responder([](uint64_t, const HttpTestServer::Request&) {
        return std::string(
            "HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n"
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    });
    const auto run = run_http(http_spec(server.url(), {{{"concurrency", 2}, {"ops", 200}}}));
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(t.total_errors(), 0u);
    EXPECT_EQ(t.total_ops(), 200u);
    EXPECT_EQ(server.requests(), 200u);
    EXPECT_EQ(t.status_codes, (std::map<int, uint64_t>{{200, 200}}));
    EXPECT_EQ(server.connections(), 2u);  // each connection answered in turn, kept alive
}

}  // namespace
}  // namespace perflab::test
