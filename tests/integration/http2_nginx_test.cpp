// SPDX-License-Identifier: MIT
// HTTP/2 against a real nginx (Debian 12's 1.22, `listen … ssl http2` with a self-signed
// certificate, and h2c): what the report counts is what nginx logged, every request as
// HTTP/2.0, on as many connections as the streams need. And against a server that never
// answers: each stream times out on its own.
#include <gtest/gtest.h>

#include "http_run_helpers.h"
#include "nginx_server.h"
#include "silent_server.h"

namespace perflab::test {
namespace {

using nlohmann::json;

NginxOptions h2(bool tls) {
    NginxOptions o;
    o.tls = tls;
    o.http2 = true;
    return o;
}

json h2_spec(const std::string& url, json phases, json extra = json::object()) {
    extra["http2"] = true;
    extra["tls_verify"] = false;
    return http_spec(url, std::move(phases), std::move(extra));
}

void expect_all_logged_as_http2(const NginxServer& nginx, uint64_t requests) {
    EXPECT_EQ(nginx.wait_for_requests(requests), requests);
    EXPECT_EQ(nginx.requests_over("HTTP/2.0"), requests);
}

TEST(Http2Nginx, TlsOpenModelSendsThePlannedCount) {
    NginxServer nginx(h2(true));
    const auto run =
        run_http(h2_spec(nginx.url("/static.bin"), {{{"rate", 200}, {"duration_s", 2}}}));
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(run.summary.status, RunStatus::completed) << run.summary.error;
    EXPECT_EQ(t.total_ops(), 400u);
    EXPECT_EQ(t.sent, 400u);
    EXPECT_EQ(status_count(t, 200), 400u);
    EXPECT_EQ(t.bytes_in, 400u * NginxServer::kStaticBytes);
    EXPECT_TRUE(t.errors.empty()) << t.errors.begin()->first;
    expect_all_logged_as_http2(nginx, 400);
}

TEST(Http2Nginx, TlsClosedModelCountsMatchTheAccessLog) {
    NginxServer nginx(h2(true));
    const auto run =
        run_http(h2_spec(nginx.url("/ok"), {{{"concurrency", 40}, {"duration_s", 1.5}}}));
    const auto& t = run.summary.overall.totals;
    EXPECT_GT(t.total_ops(), 100u);
    EXPECT_EQ(status_count(t, 200), t.total_ops());
    EXPECT_TRUE(t.errors.empty()) << t.errors.begin()->first;
    expect_all_logged_as_http2(nginx, t.total_ops());
    // 40 streams, 20 per thread: one connection each.
    EXPECT_EQ(nginx.connections(), 2u);
}

TEST(Http2Nginx, CleartextClosedModelCountsMatchTheAccessLog) {
    NginxServer nginx(h2(false));
    const auto run = run_http(h2_spec(nginx.url("/ok"), {{{"concurrency", 8}, {"ops", 3000}}}));
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(t.total_ops(), 3000u);
    EXPECT_EQ(status_count(t, 200), 3000u);
    expect_all_logged_as_http2(nginx, 3000);
}

TEST(Http2Nginx, CleartextOpenModelSendsThePlannedCount) {
    NginxServer nginx(h2(false));
    const auto run =
        run_http(h2_spec(nginx.url("/static.bin"), {{{"rate", 500}, {"duration_s", 2}}}));
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(t.total_ops(), 1000u);
    EXPECT_EQ(status_count(t, 200), 1000u);
    EXPECT_EQ(t.bytes_in, 1000u * NginxServer::kStaticBytes);
    expect_all_logged_as_http2(nginx, 1000);
}

// Concurrency 25 with 10 streams to a connection: ceil(25 / 10) = 3 connections.
TEST(Http2Nginx, ClosedModelOpensOneConnectionPerMaxStreams) {
    NginxServer nginx(h2(true));
    const auto run = run_http(h2_spec(nginx.url("/ok"), {{{"concurrency", 25}, {"ops", 2000}}},
                                      {{"threads", 1}, {"max_streams", 10}}));
    EXPECT_EQ(run.summary.overall.totals.total_ops(), 2000u);
    expect_all_logged_as_http2(nginx, 2000);
    EXPECT_EQ(nginx.connections(), 3u);
}

// Templated URLs, headers and bodies go out as HTTP/2 fields and DATA.
TEST(Http2Nginx, TemplatedPostsWithBodies) {
    NginxServer nginx(h2(true));
    auto spec = h2_spec(nginx.url("/ok"), {{{"concurrency", 4}, {"ops", 500}}});
    spec["http"]["targets"] = {{{"method", "POST"},
                                {"url", nginx.url("/ok?n={{seq}}")},
                                {"headers", {{"X-Request", "{{uuid}}"}}},
                                {"content_type", "application/json"},
                                {"body_template", "{\"n\": {{uniform 1 1000}}}"},
                                {"expect", {{"status", {200}}}}}};
    const auto run = run_http(spec);
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(t.total_ops(), 500u);
    EXPECT_EQ(status_count(t, 200), 500u);
    EXPECT_TRUE(t.errors.empty()) << t.errors.begin()->first;
    EXPECT_GT(t.bytes_out, 500u * 8);
    expect_all_logged_as_http2(nginx, 500);
}

// nginx ends a connection after keepalive_requests with a GOAWAY: requests it refused unseen
// go again on another connection, so none fails and the log still matches. Four connections
// of 10 streams, opened together, reach the limit together.
TEST(Http2Nginx, GoawayAfterKeepaliveRequestsLosesNoRequest) {
    NginxOptions o = h2(true);
    o.keepalive_requests = 100;
    NginxServer nginx(o);
    const auto run = run_http(h2_spec(nginx.url("/ok"), {{{"concurrency", 40}, {"ops", 4000}}},
                                      {{"threads", 1}, {"max_streams", 10}}));
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(t.total_ops(), 4000u);
    EXPECT_EQ(status_count(t, 200), 4000u);
    EXPECT_TRUE(t.errors.empty()) << t.errors.begin()->first;
    expect_all_logged_as_http2(nginx, 4000);
    EXPECT_GE(nginx.connections(), 40u);
}

TEST(Http2Nginx, ServerWithoutHttp2FailsClearly) {
    NginxServer nginx(true);
    const auto run = run_http(h2_spec(nginx.url("/ok"), {{{"rate", 10}, {"duration_s", 0.5}}}));
    EXPECT_EQ(run.summary.status, RunStatus::failed);
    EXPECT_NE(run.summary.error.find("did not select HTTP/2"), std::string::npos)
        << run.summary.error;
    EXPECT_EQ(nginx.requests(), 0u);
}

// The connection opens but no frame ever comes back: every stream is reset at timeout_ms and
// counted as a timeout, none is lost; no response, so no latency.
TEST(Http2Faults, StreamsPastTheirTimeoutFailAsTimeouts) {
    SilentServer silent;
    const auto run = run_http(h2_spec("http://127.0.0.1:" + std::to_string(silent.port()) + "/x",
                                      {{{"rate", 20}, {"duration_s", 1}}}, {{"timeout_ms", 300}}));
    const auto& t = run.summary.overall.totals;
    EXPECT_EQ(t.total_ops(), 20u);
    EXPECT_EQ(error_count(t, "timeout"), 20u);
    EXPECT_EQ(t.latency().count(), 0u);
}

}  // namespace
}  // namespace perflab::test
