// SPDX-License-Identifier: MIT
// `run --metrics-listen` against a real Prometheus server (Debian's `prometheus`) that scrapes
// it every second: after the run, Prometheus's own query API must give the run's request count
// and, from the exposed buckets, a p99 in the bucket of the run's own or the next one; a cache
// run's counters are memcached's own and its gauges follow the spec's phases.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <regex>
#include <vector>

#include "memcached_server.h"
#include "metrics/live_metrics.h"
#include "nginx_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

// GET http://127.0.0.1:port{path_and_query}; the body, or "" when nothing answered.
std::string http_get(uint16_t port, const std::string& target) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return "";
    }
    const std::string request =
        "GET " + target + " HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
    std::string reply;
    char buf[4096];
    for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;)
        reply.append(buf, size_t(n));
    ::close(fd);
    const size_t body = reply.find("\r\n\r\n");
    return body == std::string::npos ? "" : reply.substr(body + 4);
}

std::string url_encoded(const std::string& text) {
    std::string out;
    for (const unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += char(c);
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            out += hex;
        }
    }
    return out;
}

json query_reply(uint16_t port, const std::string& promql) {
    return json::parse(http_get(port, "/api/v1/query?query=" + url_encoded(promql)), nullptr,
                       false);
}

// An instant query's single value; NaN when it gave none.
double query(uint16_t port, const std::string& promql) {
    const auto reply = query_reply(port, promql);
    if (!reply.is_object() || reply.value("status", "") != "success") return NAN;
    const json& result = reply["data"]["result"];
    if (!result.is_array() || result.size() != 1) return NAN;
    return std::stod(result[0]["value"][1].get<std::string>());
}

// A dashboard's query as Prometheus takes it outside Grafana.
std::string instant(std::string expr) {
    for (size_t at; (at = expr.find("$__rate_interval")) != std::string::npos;)
        expr.replace(at, std::strlen("$__rate_interval"), "1m");
    return expr;
}

// Which of the exposed latency buckets (seconds; the last is +Inf) holds `seconds`.
size_t bucket_of(double seconds) {
    const std::vector<double> bounds = {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005,
                                        0.01,   0.02,   0.05,   0.1,   0.2,   0.5,
                                        1,      2,      5,      10,    30};
    for (size_t i = 0; i < bounds.size(); ++i)
        if (seconds <= bounds[i]) return i;
    return bounds.size();
}

// Debian's Prometheus, scraping 127.0.0.1:metrics_port every second, its data in `dir`.
void start_prometheus(TempDir& dir, uint16_t metrics_port, uint16_t prometheus_port,
                      Process& prometheus) {
    dir.write("prometheus.yml",
              "global:\n"
              "  scrape_interval: 1s\n"
              "  scrape_timeout: 900ms\n"
              "scrape_configs:\n"
              "  - job_name: perflab\n"
              "    static_configs:\n"
              "      - targets: ['127.0.0.1:" +
                  std::to_string(metrics_port) + "']\n");
    prometheus = Process({"prometheus", "--config.file=" + dir.file("prometheus.yml"),
                          "--storage.tsdb.path=" + dir.file("data"),
                          "--web.listen-address=127.0.0.1:" + std::to_string(prometheus_port)},
                         dir.file("prometheus.out"), dir.file("prometheus.err"));
    ASSERT_TRUE(wait_until([&] { return !http_get(prometheus_port, "/-/ready").empty(); },
                           std::chrono::seconds(60)))
        << read_file(dir.file("prometheus.err"));
}

// `perflab run SPEC --json --metrics-listen 127.0.0.1:port`, unstored; what it printed.
void run_listening(TempDir& dir, const json& spec, uint16_t port, json& report) {
    dir.write("spec.json", spec.dump());
    const auto out = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store", "--json",
                          "--metrics-listen", "127.0.0.1:" + std::to_string(port)},
                         120);
    ASSERT_EQ(out.code, 0) << out.err;
    report = json::parse(out.out, nullptr, false);
    ASSERT_TRUE(report.is_object()) << out.out;
}

TEST(MetricsListen, PrometheusScrapesTheRunsCountAndP99) {
    TempDir dir;
    NginxServer nginx;
    const uint16_t metrics_port = free_port();
    const uint16_t prometheus_port = free_port();
    Process prometheus;
    ASSERT_NO_FATAL_FAILURE(start_prometheus(dir, metrics_port, prometheus_port, prometheus));

    const json spec = {{"name", "metrics"},
                       {"kind", "http"},
                       {"tick_ms", 1000},
                       {"phases", {{{"rate", 200}, {"duration_s", 10}, {"concurrency", 4}}}},
                       {"http", {{"targets", {{{"url", nginx.url("/ok")}}}}}}};
    json report;
    ASSERT_NO_FATAL_FAILURE(run_listening(dir, spec, metrics_port, report));
    const double requests = report["requests"].get<double>();
    ASSERT_GT(requests, 0);
    EXPECT_EQ(nginx.wait_for_requests(uint64_t(requests)), uint64_t(requests));

    // The target is gone now, its series stale: their last values are the run's end.
    double scraped = NAN;
    wait_until(
        [&] {
            scraped = query(prometheus_port, "sum(last_over_time(perflab_requests_total[5m]))");
            return scraped == requests;
        },
        std::chrono::seconds(10));
    EXPECT_EQ(scraped, requests) << read_file(dir.file("prometheus.err"));

    const double p99 = query(prometheus_port,
                             "histogram_quantile(0.99, sum by (le) "
                             "(last_over_time(perflab_latency_seconds_bucket[5m])))");
    ASSERT_FALSE(std::isnan(p99));
    const double run_p99 = report["latency_us"]["p99"].get<double>() / 1e6;
    const auto a = bucket_of(p99), b = bucket_of(run_p99);
    EXPECT_LE(std::max(a, b) - std::min(a, b), 1u)
        << "Prometheus p99 " << p99 << " s, the run's " << run_p99 << " s";
    EXPECT_EQ(query(prometheus_port, "max(last_over_time(perflab_running[5m]))"), 0)
        << "the last scrape came after the run ended";

    // The shipped Grafana dashboard: every query is one this Prometheus accepts, on metrics
    // the endpoint exposes; its throughput panel has the run's data.
    const auto dashboard = json::parse(
        read_file(std::string(PERFLAB_SOURCE_DIR) + "/resources/grafana/perflab-dashboard.json"));
    const auto& names = LiveMetrics::metric_names();
    const std::regex metric(R"(perflab_[a-z_]+)");
    int queries = 0;
    for (const auto& panel : dashboard["panels"])
        for (const auto& target : panel["targets"]) {
            const std::string expr = instant(target["expr"].get<std::string>());
            const auto reply = query_reply(prometheus_port, expr);
            EXPECT_EQ(reply.value("status", ""), "success") << expr << ": " << reply.dump();
            ++queries;
            for (std::sregex_iterator m(expr.begin(), expr.end(), metric), end; m != end; ++m) {
                std::string name = m->str();
                for (const char* suffix : {"_bucket", "_sum", "_count"})
                    if (name.ends_with(suffix) && name != "perflab_connections")
                        name.erase(name.size() - std::strlen(suffix));
                EXPECT_NE(std::find(names.begin(), names.end(), name), names.end())
                    << panel["title"] << ": " << name << " is not exposed";
            }
        }
    EXPECT_GE(queries, 9);
    const auto throughput = query_reply(
        prometheus_port, instant(dashboard["panels"][0]["targets"][0]["expr"].get<std::string>()));
    EXPECT_FALSE(throughput["data"]["result"].empty()) << throughput.dump();
}

// A cache run of two phases, the second paced: what Prometheus scraped of its counters is
// what memcached counted (requests per op, hits, misses) and what the run printed (sends and
// bytes per phase), and its gauges went through the spec's phases, rate and connections.
TEST(MetricsListen, PrometheusScrapesACacheRunsCountersAndGauges) {
    TempDir dir;
    MemcachedServer memcached;
    const uint16_t metrics_port = free_port();
    const uint16_t prometheus_port = free_port();
    Process prometheus;
    ASSERT_NO_FATAL_FAILURE(start_prometheus(dir, metrics_port, prometheus_port, prometheus));
    const json spec = {{"name", "metrics cache"},
                       {"kind", "cache"},
                       {"tick_ms", 500},
                       {"phases",
                        {{{"duration_s", 4}, {"concurrency", 3}},
                         {{"duration_s", 4}, {"rate", 300}, {"concurrency", 3}}}},
                       {"cache",
                        {{"servers", {memcached.endpoint()}},
                         {"workload", "cache-aside"},
                         {"keys", {{"count", 2000}}},
                         {"value_size", {{"min", 32}, {"max", 64}}}}}};
    const CacheCounters before = cache_counters(memcached);
    json report;
    ASSERT_NO_FATAL_FAILURE(run_listening(dir, spec, metrics_port, report));
    const CacheCounters after = cache_counters(memcached);

    // The last scrape holds the run's end (perflab_running 0), so each counter's last value
    // is the run's.
    ASSERT_TRUE(wait_until(
        [&] { return query(prometheus_port, "min(last_over_time(perflab_running[5m]))") == 0; },
        std::chrono::seconds(10)))
        << read_file(dir.file("prometheus.err"));
    const auto last = [&](const std::string& series) {
        return query(prometheus_port, "sum(last_over_time(" + series + "[5m]))");
    };
    EXPECT_EQ(last("perflab_requests_total{op=\"get\"}"), double(after.cmd_get - before.cmd_get));
    EXPECT_EQ(last("perflab_requests_total{op=\"set\"}"), double(after.cmd_set - before.cmd_set));
    EXPECT_EQ(last("perflab_hits_total"), double(after.get_hits - before.get_hits));
    EXPECT_EQ(last("perflab_misses_total"), double(after.get_misses - before.get_misses));
    EXPECT_GT(after.get_hits - before.get_hits, 0u);
    EXPECT_EQ(last("perflab_errors_total"), 0);
    ASSERT_EQ(report["phases"].size(), 2u);
    for (int phase = 0; phase < 2; ++phase) {
        const json& p = report["phases"][size_t(phase)];
        const std::string of = "{phase=\"" + std::to_string(phase) + "\"}";
        EXPECT_EQ(last("perflab_sent_total" + of), p["sent"].get<double>()) << phase;
        EXPECT_EQ(last("perflab_bytes_in_total" + of), p["bytes_in"].get<double>()) << phase;
        EXPECT_EQ(last("perflab_bytes_out_total" + of), p["bytes_out"].get<double>()) << phase;
        EXPECT_EQ(last("perflab_late_sends_total" + of), p["late"].get<double>()) << phase;
        EXPECT_EQ(last("perflab_dropped_total" + of), p["dropped"].get<double>()) << phase;
    }
    // The gauges as the run went: both phases, the second's planned 300/s, its 3 connections.
    const auto most = [&](const std::string& series) {
        return query(prometheus_port, "max(max_over_time(" + series + "[5m]))");
    };
    EXPECT_EQ(most("perflab_phase"), 1);
    EXPECT_EQ(most("perflab_planned_rate"), 300);
    EXPECT_EQ(most("perflab_connections"), 3);
    EXPECT_EQ(most("perflab_running"), 1);
    EXPECT_EQ(query(prometheus_port,
                    "count(last_over_time(perflab_run_info{kind=\"cache\","
                    "name=\"metrics cache\"}[5m]))"),
              1);
}

TEST(MetricsListen, AnAddressThatCannotBeListenedOnIsBadInput) {
    TempDir dir;
    const json spec = {{"name", "metrics"},
                       {"kind", "http"},
                       {"phases", {{{"rate", 10}, {"duration_s", 1}}}},
                       {"http", {{"targets", {{{"url", "http://127.0.0.1:9/"}}}}}}};
    dir.write("spec.json", spec.dump());
    for (const std::string address : {"nonsense", "localhost:9464", "127.0.0.1:99999"}) {
        const auto out = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store",
                              "--metrics-listen", address});
        EXPECT_EQ(out.code, 2) << address << ": " << out.err;
        EXPECT_NE(out.err.find("--metrics-listen"), std::string::npos) << out.err;
    }
    // A port another process holds.
    const int holder = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(holder, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_EQ(::listen(holder, 1), 0);
    socklen_t length = sizeof addr;
    ::getsockname(holder, reinterpret_cast<sockaddr*>(&addr), &length);
    const auto taken =
        run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store", "--metrics-listen",
             "127.0.0.1:" + std::to_string(ntohs(addr.sin_port))});
    EXPECT_EQ(taken.code, 2) << taken.err;
    EXPECT_NE(taken.err.find("Address already in use"), std::string::npos) << taken.err;
    ::close(holder);
}

}  // namespace
}  // namespace perflab::test
