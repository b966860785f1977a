// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <vector>

#include "http_test_server.h"
#include "nginx_server.h"
#include "proc_stat_log.h"
#include "process.h"
#include "prometheus_probe.h"
#include "sshd_server.h"

namespace perflab {
namespace {

// A Debian exporter in the foreground on a free loopback port, up once its page answers.
struct Exporter {
    uint16_t port = test::free_port();
    test::Process process;

    explicit Exporter(std::vector<std::string> argv, const test::TempDir& dir) {
        argv.push_back("--web.listen-address=127.0.0.1:" + std::to_string(port));
        process = test::Process(argv, dir.file("exporter.out"), dir.file("exporter.err"));
        EXPECT_TRUE(test::wait_for_port(port, 10000)) << "exporter " << argv[0] << " did not start";
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port) + "/metrics"; }
};

// node_exporter with the collectors it has no use for here off: less to read each scrape.
Exporter node_exporter(const test::TempDir& dir) {
    return Exporter({"/usr/bin/prometheus-node-exporter", "--collector.disable-defaults",
                     "--collector.cpu", "--collector.loadavg", "--collector.meminfo"},
                    dir);
}

nlohmann::json http_spec(const std::string& url, double seconds, int rate,
                         const nlohmann::json& probe) {
    return {{"name", "prometheus probe"},
            {"kind", "http"},
            {"tick_ms", 500},
            {"phases", {{{"duration_s", seconds}, {"rate", rate}}}},
            {"http", {{"targets", {{{"url", url}}}}, {"threads", 1}}},
            {"probes", {probe}}};
}

struct StoredRun {
    test::Output run;
    nlohmann::json exported;  // `perflab export 1 --format json`
};

StoredRun run_stored(const nlohmann::json& spec, const test::TempDir& dir) {
    StoredRun r;
    dir.write("spec.json", spec.dump());
    const std::string db = dir.file("runs.db");
    r.run = test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db}, 120);
    if (r.run.code != 0) return r;
    const auto e = test::run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "json"}, 60);
    EXPECT_EQ(e.code, 0) << e.err;
    r.exported = nlohmann::json::parse(e.out);
    return r;
}

// A stored run of `spec` that `mid_run` changes once the console shows `shown` (a probe's value
// on the run's clock), and its export when it ended as planned.
StoredRun run_changed_midway(const nlohmann::json& spec, const test::TempDir& dir,
                             const std::string& shown, const std::function<void()>& mid_run) {
    StoredRun r;
    dir.write("spec.json", spec.dump());
    const std::string db = dir.file("runs.db");
    test::Process run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db},
                      dir.file("run.out"), dir.file("run.err"));
    const bool seen = test::wait_until(
        [&] { return test::read_file(dir.file("run.out")).find(shown) != std::string::npos; },
        std::chrono::seconds(30));
    EXPECT_TRUE(seen) << test::read_file(dir.file("run.out"));
    if (seen) mid_run();
    r.run.code = run.wait();
    r.run.out = test::read_file(dir.file("run.out"));
    r.run.err = test::read_file(dir.file("run.err"));
    if (!seen || r.run.code != 0) return r;
    const auto e = test::run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "json"}, 60);
    EXPECT_EQ(e.code, 0) << e.err;
    r.exported = nlohmann::json::parse(e.out);
    return r;
}

// The texts of the run's events about the probe of `url`.
std::vector<std::string> probe_events(const nlohmann::json& exported, const std::string& url) {
    std::vector<std::string> out;
    for (const auto& ev : exported.at("events"))
        if (ev.at("text").get<std::string>().find("probe prometheus " + url) != std::string::npos)
            out.push_back(ev.at("text"));
    return out;
}

std::vector<nlohmann::json> prometheus_samples(const nlohmann::json& exported) {
    std::vector<nlohmann::json> out;
    for (const auto& s : exported.at("probe_samples"))
        if (s.at("kind") == "prometheus") out.push_back(s);
    return out;
}

// A busy loop beside a run: the probe's rate of node_cpu_seconds_total{mode!="idle"}, summed
// over the cpus and divided by their number, over the run is /proc/stat's busy share over the
// same window, within 5 points.
TEST(PrometheusProbe, NodeExporterCpuAgreesWithProcStat) {
    test::TempDir dir;
    Exporter exporter = node_exporter(dir);
    test::NginxServer nginx;
    test::Process busy({"/bin/sh", "-c", "while :; do :; done"});
    const nlohmann::json probe = {{"prometheus", exporter.url()},
                                  {"metrics", {"node_cpu_seconds_total{mode!=\"idle\"}"}}};
    test::ProcStatLog proc_stat;
    const StoredRun r = run_stored(http_spec(nginx.url("/ok"), 4, 50, probe), dir);
    ASSERT_EQ(r.run.code, 0) << r.run.out << r.run.err;
    const double cpus = double(sysconf(_SC_NPROCESSORS_ONLN));
    // The first sample's rate is over the time since the probe's opening scrape, taken before
    // the run's clock starts: the window begins at the first sample, on both sides.
    double busy_seconds = 0, window_ms = 0;
    int64_t first_t = -1, last_t = 0;
    for (const auto& s : prometheus_samples(r.exported)) {
        ASSERT_FALSE(s.at("gap").get<bool>()) << s.dump();
        const int64_t t = s.at("t_ms").get<int64_t>();
        double per_second = 0;
        int series = 0;
        for (const auto& [key, v] : s.at("values").items()) {
            ASSERT_TRUE(key.starts_with("prom.node_cpu_seconds_total:rate{cpu=")) << key;
            EXPECT_EQ(key.find("mode=\"idle\""), std::string::npos) << key;
            per_second += v.get<double>();
            ++series;
        }
        EXPECT_EQ(series, int(cpus) * 7) << s.dump();  // 8 modes less idle
        if (first_t < 0) {
            first_t = last_t = t;
            continue;
        }
        busy_seconds += per_second * double(t - last_t) / 1000.0;
        window_ms += double(t - last_t);
        last_t = t;
    }
    ASSERT_GT(window_ms, 2500) << r.exported.at("probe_samples").dump();
    const double probe_pct = 100.0 * busy_seconds / (window_ms / 1000.0) / cpus;
    const int64_t started = r.exported.at("run").at("started_at_ms").get<int64_t>();
    const double proc_pct = proc_stat.busy_pct(started + first_t, started + last_t, true);
    // The loop alone keeps one cpu busy.
    EXPECT_GT(proc_pct, 100.0 / cpus - 5);
    EXPECT_NEAR(probe_pct, proc_pct, 5.0) << r.run.out;
    std::cout << "busy cpu: probe " << probe_pct << "%, /proc/stat " << proc_pct << "%\n";
}

// An exporter whose every other scrape answers late (as one starved of CPU does): its counter
// gains 1000 per scrape, so the stored rates, integrated over the samples' own times, are
// 1000 per sample after the first, however long each scrape took.
TEST(PrometheusProbe, SlowScrapesKeepTheSeriesIntegralTheCountersChange) {
    test::TempDir dir;
    test::NginxServer nginx;
    test::HttpTestServer exporter;
    std::atomic<uint64_t> scrapes{0};
    exporter.set_responder([&](uint64_t, const test::HttpTestServer::Request&) {
        const uint64_t n = ++scrapes;
        if (n % 2 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(180));
        const std::string body = "# TYPE perflab_test_total counter\nperflab_test_total " +
                                 std::to_string(1000 * n) + "\n";
        return "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
               std::to_string(body.size()) + "\r\n\r\n" + body;
    });
    const nlohmann::json probe = {{"prometheus", exporter.url("/metrics")},
                                  {"metrics", {"perflab_test_total"}}};
    nlohmann::json spec = http_spec(nginx.url("/ok"), 3, 50, probe);
    spec["tick_ms"] = 250;
    const StoredRun r = run_stored(spec, dir);
    ASSERT_EQ(r.run.code, 0) << r.run.out << r.run.err;
    const auto samples = prometheus_samples(r.exported);
    ASSERT_GE(samples.size(), 8u) << r.exported.at("probe_samples").dump();
    double gained = 0;
    for (size_t i = 1; i < samples.size(); ++i) {
        ASSERT_FALSE(samples[i].at("gap").get<bool>()) << samples[i].dump();
        const double dt_s = double(samples[i].at("t_ms").get<int64_t>() -
                                   samples[i - 1].at("t_ms").get<int64_t>()) /
                            1000.0;
        gained += samples[i].at("values").at("prom.perflab_test_total:rate").get<double>() * dt_s;
    }
    // Stamps are whole milliseconds: up to 1 ms of rate per sample either way.
    const double truth = 1000.0 * double(samples.size() - 1);
    EXPECT_NEAR(gained, truth, 0.01 * truth) << r.exported.at("probe_samples").dump();
}

// prometheus-nginx-exporter on nginx's stub_status: the probe's request rate, integrated over
// the run, is the requests nginx logged.
TEST(PrometheusProbe, NginxExporterRequestRateMatchesTheAccessLog) {
    test::TempDir dir;
    test::NginxServer nginx;
    Exporter exporter(
        {"/usr/bin/prometheus-nginx-exporter",
         "-nginx.scrape-uri=http://127.0.0.1:" + std::to_string(nginx.port()) + "/stub_status"},
        dir);
    const nlohmann::json probe = {
        {"prometheus", exporter.url()},
        {"metrics", {"nginx_http_requests_total", "nginx_connections_active"}}};
    const StoredRun r = run_stored(http_spec(nginx.url("/ok"), 3, 400, probe), dir);
    ASSERT_EQ(r.run.code, 0) << r.run.out << r.run.err;
    double requests = 0;
    int64_t last_t = 0;
    int scrapes = 0;
    for (const auto& s : prometheus_samples(r.exported)) {
        ASSERT_FALSE(s.at("gap").get<bool>()) << s.dump();
        const auto& v = s.at("values");
        ASSERT_TRUE(v.contains("prom.nginx_http_requests_total:rate")) << v.dump();
        EXPECT_TRUE(v.contains("prom.nginx_connections_active")) << v.dump();
        const int64_t t = s.at("t_ms").get<int64_t>();
        requests +=
            v.at("prom.nginx_http_requests_total:rate").get<double>() * double(t - last_t) / 1000.0;
        last_t = t;
        ++scrapes;
    }
    // stub_status counts the exporter's own request of it, one per scrape; the log does not.
    const double logged = double(nginx.wait_for_requests(1200));
    ASSERT_GE(logged, 1200);
    EXPECT_NEAR(requests - scrapes, logged, 0.02 * logged) << r.run.out;
    std::cout << "requests: probe " << requests - scrapes << ", access log " << logged << "\n";
}

// The report's Prometheus table and the probes CSV carry what the stored samples hold: the
// run's mean and most of a series, and a row per value.
TEST(PrometheusProbe, ReportAndCsvCarryTheSeries) {
    test::TempDir dir;
    test::NginxServer nginx;
    Exporter exporter(
        {"/usr/bin/prometheus-nginx-exporter",
         "-nginx.scrape-uri=http://127.0.0.1:" + std::to_string(nginx.port()) + "/stub_status"},
        dir);
    const nlohmann::json probe = {{"prometheus", exporter.url()},
                                  {"metrics", {"nginx_http_requests_total"}}};
    const StoredRun r = run_stored(http_spec(nginx.url("/ok"), 2, 200, probe), dir);
    ASSERT_EQ(r.run.code, 0) << r.run.out << r.run.err;
    double sum = 0, most = 0;
    size_t values = 0;
    const auto samples = prometheus_samples(r.exported);
    for (const auto& s : samples) {
        const double v = s.at("values").at("prom.nginx_http_requests_total:rate").get<double>();
        sum += v;
        most = std::max(most, v);
        values += s.at("values").size();
    }
    ASSERT_FALSE(samples.empty());
    const std::string db = dir.file("runs.db");
    const auto md = test::run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "md"}, 60);
    ASSERT_EQ(md.code, 0) << md.err;
    std::ostringstream row;
    row << "| run | prometheus " << exporter.url() << " | nginx_http_requests_total:rate | "
        << std::fixed << std::setprecision(3) << sum / double(samples.size()) << " | " << most
        << " |";
    EXPECT_NE(md.out.find("## Prometheus"), std::string::npos) << md.out;
    EXPECT_NE(md.out.find(row.str()), std::string::npos) << row.str() << "\n" << md.out;
    const auto csv =
        test::run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "probes-csv"}, 60);
    ASSERT_EQ(csv.code, 0) << csv.err;
    size_t rows = 0;
    std::istringstream in(csv.out);
    for (std::string line; std::getline(in, line);)
        if (line.find(",prometheus,0,prom.") != std::string::npos) ++rows;
    EXPECT_EQ(rows, values) << csv.out;
}

// An exporter killed mid-run: an event naming it, a gap, and the run ends as planned.
TEST(PrometheusProbe, TargetThatDiesMidRunIsAGapAndAnEvent) {
    test::TempDir dir;
    test::NginxServer nginx;
    auto exporter = std::make_unique<Exporter>(node_exporter(dir));
    const std::string url = exporter->url();
    const nlohmann::json probe = {{"prometheus", url}, {"metrics", {"node_load1"}}};
    const StoredRun r = run_changed_midway(http_spec(nginx.url("/ok"), 4, 50, probe), dir,
                                           "node_load1=", [&] { exporter.reset(); });
    ASSERT_EQ(r.run.code, 0) << r.run.out << r.run.err;
    ASSERT_TRUE(r.exported.is_object());
    EXPECT_NE(r.run.out.find("prometheus " + url + " -- no data --"), std::string::npos)
        << r.run.out;
    EXPECT_EQ(r.exported.at("run").at("status"), "completed") << r.exported.at("run").dump();
    const auto samples = prometheus_samples(r.exported);
    ASSERT_FALSE(samples.empty());
    EXPECT_FALSE(samples.front().at("gap").get<bool>());
    EXPECT_TRUE(samples.back().at("gap").get<bool>());
    EXPECT_EQ(probe_events(r.exported, url).size(), 1u) << r.exported.at("events").dump();
}

// An exporter that starts answering something else (an error page a proxy put in its place):
// an event saying what is wrong, gaps, and the run ends as planned.
TEST(PrometheusProbe, TargetAnsweringGarbageMidRunIsAGapAndAnEvent) {
    test::TempDir dir;
    test::HttpTestServer server;
    server.set_reply_body("# TYPE perflab_test_steady gauge\nperflab_test_steady 7\n");
    const std::string url = server.url("/metrics");
    const nlohmann::json probe = {{"prometheus", url}, {"metrics", {"perflab_test_steady"}}};
    const StoredRun r = run_changed_midway(
        http_spec(server.url("/"), 4, 20, probe), dir, "perflab_test_steady=", [&] {
            server.set_reply_body("<html><body>502 Bad Gateway</body></html>\n");
        });
    ASSERT_EQ(r.run.code, 0) << r.run.out << r.run.err;
    ASSERT_TRUE(r.exported.is_object());
    EXPECT_EQ(r.exported.at("run").at("status"), "completed") << r.exported.at("run").dump();
    const auto samples = prometheus_samples(r.exported);
    ASSERT_FALSE(samples.empty());
    EXPECT_FALSE(samples.front().at("gap").get<bool>());
    EXPECT_EQ(samples.front().at("values").at("prom.perflab_test_steady"), 7.0)
        << samples.front().dump();
    EXPECT_TRUE(samples.back().at("gap").get<bool>()) << samples.back().dump();
    const auto told = probe_events(r.exported, url);
    ASSERT_EQ(told.size(), 1u) << r.exported.at("events").dump();
    EXPECT_NE(told.front().find("not the exposition format"), std::string::npos) << told.front();
}

// A selector taking every node_ metric: the first 50 series are kept, the rest told once; with
// interval_ms over the tick, scrapes are that far apart (less half a tick), not each tick.
TEST(PrometheusProbe, ManySeriesAreCappedAndIntervalSpacesScrapes) {
    test::TempDir dir;
    Exporter exporter = node_exporter(dir);
    test::NginxServer nginx;
    const nlohmann::json probe = {{"prometheus", exporter.url()},
                                  {"metrics", {"{__name__=~\"node_.+\"}"}},
                                  {"interval_ms", 1000}};
    nlohmann::json spec = http_spec(nginx.url("/ok"), 3, 50, probe);
    spec["tick_ms"] = 250;
    const StoredRun r = run_stored(spec, dir);
    ASSERT_EQ(r.run.code, 0) << r.run.out << r.run.err;
    const auto samples = prometheus_samples(r.exported);
    ASSERT_GE(samples.size(), 2u);
    int64_t last = -1000;
    uint64_t hidden = 0;
    for (const auto& s : samples) {
        const auto& values = s.at("values");
        EXPECT_EQ(std::count_if(values.items().begin(), values.items().end(),
                                [](const auto& v) { return v.key().starts_with("prom."); }),
                  50)
            << s.dump();
        ASSERT_TRUE(values.contains("hidden_series")) << s.dump();
        const auto n = values.at("hidden_series").get<uint64_t>();
        EXPECT_GT(n, 0u);
        if (hidden == 0) hidden = n;
        const int64_t t = s.at("t_ms").get<int64_t>();
        EXPECT_GE(t - last, 1000 - 125) << r.exported.at("probe_samples").dump();
        last = t;
    }
    // The event says the count the first sample carries.
    int told = 0;
    for (const auto& ev : r.exported.at("events"))
        if (ev.at("text").get<std::string>().find(": " + std::to_string(hidden) +
                                                  " more series not shown") != std::string::npos)
            ++told;
    EXPECT_EQ(told, 1) << r.exported.at("events").dump();
}

// compare puts each series' mean and max beside the servers' figures, a run's being the mean
// and the most of its stored samples.
TEST(PrometheusProbe, CompareShowsEachSeriesMeanAndMax) {
    test::TempDir dir;
    test::NginxServer nginx;
    Exporter exporter(
        {"/usr/bin/prometheus-nginx-exporter",
         "-nginx.scrape-uri=http://127.0.0.1:" + std::to_string(nginx.port()) + "/stub_status"},
        dir);
    const nlohmann::json probe = {{"prometheus", exporter.url()},
                                  {"metrics", {"nginx_http_requests_total"}}};
    const std::string db = dir.file("runs.db");
    std::vector<std::pair<double, double>> expected;  // (mean, max) of each run
    for (const int rate : {100, 300}) {
        dir.write("spec.json", http_spec(nginx.url("/ok"), 2, rate, probe).dump());
        const auto o = test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "-q"});
        ASSERT_EQ(o.code, 0) << o.err;
        const std::string id = std::to_string(expected.size() + 1);
        const auto e =
            test::run({PERFLAB_BINARY, "export", id, "--db", db, "--format", "json"}, 60);
        ASSERT_EQ(e.code, 0) << e.err;
        double sum = 0, most = 0;
        const auto samples = prometheus_samples(nlohmann::json::parse(e.out));
        for (const auto& s : samples) {
            const double v = s.at("values").at("prom.nginx_http_requests_total:rate").get<double>();
            sum += v;
            most = std::max(most, v);
        }
        ASSERT_FALSE(samples.empty());
        expected.emplace_back(sum / double(samples.size()), most);
    }
    const auto c = test::run({PERFLAB_BINARY, "compare", "1", "2", "--db", db, "--json"}, 60);
    ASSERT_EQ(c.code, 0) << c.err;
    const auto figures = nlohmann::json::parse(c.out).at("figures");
    const std::string series = "prometheus " + exporter.url() + " nginx_http_requests_total:rate";
    ASSERT_TRUE(figures.contains(series + " mean")) << figures.dump();
    const auto& mean = figures.at(series + " mean").at("values");
    const auto& max = figures.at(series + " max").at("values");
    for (size_t i = 0; i < 2; ++i) {
        EXPECT_DOUBLE_EQ(mean.at(i).get<double>(), expected[i].first);
        EXPECT_DOUBLE_EQ(max.at(i).get<double>(), expected[i].second);
    }
    EXPECT_EQ(figures.at(series + " mean").at("verdict").at(0), "baseline");
}

// Two runs, each probing a page this test serves on a port of its own: one gauge at 10 in the
// first run and 20 in the second, another at 7 in both. compare matches each series across the
// two addresses by its name and labels: the first's means are 10 and 20 and it differs, beyond
// the threshold; the steady one is the same.
TEST(PrometheusProbe, CompareJudgesTheSeriesThatChangedAndNotTheSteadyOne) {
    test::TempDir dir;
    const std::string db = dir.file("runs.db");
    std::vector<std::unique_ptr<test::HttpTestServer>> servers;  // all up: two addresses
    for (const int queue : {10, 20}) {
        servers.push_back(std::make_unique<test::HttpTestServer>());
        servers.back()->set_reply_body(
            "# HELP perflab_test_queue Requests waiting.\n# TYPE perflab_test_queue gauge\n"
            "perflab_test_queue{pool=\"a\"} " +
            std::to_string(queue) + "\n# TYPE perflab_test_steady gauge\nperflab_test_steady 7\n");
        const nlohmann::json probe = {{"prometheus", servers.back()->url("/metrics")},
                                      {"metrics", {"perflab_test_queue", "perflab_test_steady"}}};
        dir.write("spec.json", http_spec(servers.back()->url("/"), 2, 20, probe).dump());
        const auto o = test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "-q"});
        ASSERT_EQ(o.code, 0) << o.out << o.err;
    }
    const std::string first = servers[0]->url("/metrics"), second = servers[1]->url("/metrics");
    ASSERT_NE(first, second);
    const auto c = test::run({PERFLAB_BINARY, "compare", "1", "2", "--db", db, "--json"}, 60);
    ASSERT_EQ(c.code, 0) << c.err;
    const auto figures = nlohmann::json::parse(c.out).at("figures");
    const std::string queue = "prometheus " + first + " perflab_test_queue{pool=\"a\"}";
    const std::string steady = "prometheus " + first + " perflab_test_steady";
    ASSERT_TRUE(figures.contains(queue + " mean")) << figures.dump(2);
    ASSERT_TRUE(figures.contains(steady + " mean")) << figures.dump(2);
    for (const char* figure : {" mean", " max"}) {
        const auto& f = figures.at(queue + figure);
        EXPECT_EQ(f.at("values"), nlohmann::json({10.0, 20.0})) << f.dump();
        EXPECT_EQ(f.at("delta_pct").at(1), 100.0) << f.dump();
        EXPECT_EQ(f.at("verdict"), nlohmann::json({"baseline", "differs"})) << f.dump();
        EXPECT_EQ(f.at("series"), "perflab_test_queue{pool=\"a\"}");
        EXPECT_EQ(f.at("sources"), nlohmann::json({first, second})) << f.dump();
        EXPECT_TRUE(f.at("higher_is_better").is_null()) << f.dump();
        const auto& s = figures.at(steady + figure);
        EXPECT_EQ(s.at("values"), nlohmann::json({7.0, 7.0})) << s.dump();
        EXPECT_EQ(s.at("verdict"), nlohmann::json({"baseline", "same"})) << s.dump();
    }
    const auto text = test::run({PERFLAB_BINARY, "compare", "1", "2", "--db", db}, 60);
    ASSERT_EQ(text.code, 0) << text.err;
    std::istringstream lines(text.out);
    int told = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with(queue + " mean")) {
            ++told;
            EXPECT_NE(line.find("10.000"), std::string::npos) << line;
            EXPECT_NE(line.find("20.000 (+100.0% differs)"), std::string::npos) << line;
        }
        if (line.starts_with(steady + " mean")) {
            ++told;
            EXPECT_NE(line.find("7.000 (+0.0% same)"), std::string::npos) << line;
        }
    }
    EXPECT_EQ(told, 2) << text.out;
}

// MemTotal from /proc/meminfo, in bytes (the kernel writes kB).
double mem_total_bytes() {
    std::ifstream in("/proc/meminfo");
    std::string name;
    double kb = 0;
    while (in >> name >> kb && name != "MemTotal:")
        in.ignore(1 << 10, '\n');
    return kb * 1024;
}

PrometheusTarget via_target(const Exporter& exporter, const test::SshdServer& sshd,
                            const std::string& known_hosts) {
    PrometheusTarget t;
    t.url = exporter.url();
    t.selectors.push_back(
        std::get<PromSelector>(parse_prom_selector("node_memory_MemTotal_bytes")));
    t.via = parse_ssh_target(sshd.target());
    t.ssh_options.key_file = sshd.client_key();
    t.ssh_options.known_hosts = known_hosts;
    return t;
}

// With via, the page is fetched on the host over SSH (its key checked): the exporter's
// MemTotal is the host's; the exporter gone is a gap and one event, not an exception.
TEST(PrometheusProbe, ViaFetchesOnTheHostOverSsh) {
    test::TempDir dir;
    auto exporter = std::make_unique<Exporter>(node_exporter(dir));
    test::SshdServer sshd;
    PrometheusProbe probe(via_target(*exporter, sshd, sshd.known_hosts()), 500);
    EXPECT_NE(probe.source().find(" via " + sshd.target()), std::string::npos) << probe.source();
    probe.open();
    const ProbeReading r = probe.poll();
    ASSERT_TRUE(r.ready);
    ASSERT_FALSE(r.gap) << r.values.dump();
    EXPECT_EQ(r.values.at("prom.node_memory_MemTotal_bytes").get<double>(), mem_total_bytes());
    exporter.reset();
    const ProbeReading down = probe.poll();
    EXPECT_TRUE(down.gap);
    ASSERT_EQ(down.events.size(), 1u);
    EXPECT_NE(down.events[0].text.find("fetch on the host failed"), std::string::npos)
        << down.events[0].text;
    const ProbeReading still = probe.poll();
    EXPECT_TRUE(still.gap);
    EXPECT_TRUE(still.events.empty());
}

TEST(PrometheusProbe, ViaRefusesAHostWhoseKeyChanged) {
    test::TempDir dir;
    Exporter exporter = node_exporter(dir);
    test::SshdServer sshd;
    PrometheusProbe probe(via_target(exporter, sshd, sshd.make_wrong_known_hosts("wrong")), 500);
    try {
        probe.open();
        FAIL() << "opened against a changed host key";
    } catch (const ProbeError& e) {
        EXPECT_NE(std::string(e.what()).find("CHANGED"), std::string::npos) << e.what();
    }
}

// A selector Prometheus would refuse is bad input before anything runs: exit 2, naming it.
TEST(PrometheusProbe, BadSelectorExitsTwoNamingIt) {
    test::TempDir dir;
    const nlohmann::json probe = {{"prometheus", "http://127.0.0.1:9/metrics"},
                                  {"metrics", {"node_load1", "node_cpu_seconds_total{mode=idle}"}}};
    dir.write("spec.json", http_spec("http://127.0.0.1:9/", 1, 10, probe).dump());
    const auto o =
        test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--no-store", "-q"}, 60);
    EXPECT_EQ(o.code, 2) << o.out << o.err;
    EXPECT_NE(o.err.find("probes[0].metrics[1]"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("node_cpu_seconds_total{mode=idle}"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace perflab
