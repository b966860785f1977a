// SPDX-License-Identifier: MIT
#include "model/prom_text.h"

#include <gtest/gtest.h>

#include <cmath>

#include "model/prom_selector.h"
#include "prom_series.h"

namespace perflab {
namespace {

// The example of the format's own documentation (exposition_formats.md), less its comments.
constexpr std::string_view kDocExample =
    R"(# HELP http_requests_total The total number of HTTP requests.
# TYPE http_requests_total counter
http_requests_total{method="post",code="200"} 1027 1395066363000
http_requests_total{method="post",code="400"}    3 1395066363000

# Escaping in label values:
msdos_file_access_time_seconds{path="C:\\DIR\\FILE.TXT",error="Cannot find file:\n\"FILE.TXT\""} 1.458255915e9

# Minimalistic line:
metric_without_timestamp_and_labels 12.47

# A weird metric from before the epoch:
something_weird{problem="division by zero"} +Inf -3982045

# A histogram, which has a pretty complex representation in the text format:
# HELP http_request_duration_seconds A histogram of the request duration.
# TYPE http_request_duration_seconds histogram
http_request_duration_seconds_bucket{le="0.05"} 24054
http_request_duration_seconds_bucket{le="0.1"} 33444
http_request_duration_seconds_bucket{le="0.2"} 100392
http_request_duration_seconds_bucket{le="0.5"} 129389
http_request_duration_seconds_bucket{le="1"} 133988
http_request_duration_seconds_bucket{le="+Inf"} 144320
http_request_duration_seconds_sum 53423
http_request_duration_seconds_count 144320

# Finally a summary, which has a complex representation, too:
# HELP rpc_duration_seconds A summary of the RPC duration in seconds.
# TYPE rpc_duration_seconds summary
rpc_duration_seconds{quantile="0.01"} 3102
rpc_duration_seconds{quantile="0.05"} 3272
rpc_duration_seconds{quantile="0.5"} 4773
rpc_duration_seconds{quantile="0.9"} 9001
rpc_duration_seconds{quantile="0.99"} 76656
rpc_duration_seconds_sum 1.7560473e+07
rpc_duration_seconds_count 2693
)";

TEST(PromText, ReadsTheDocumentationsExample) {
    const auto r = parse_prom_text(kDocExample);
    ASSERT_FALSE(r.error) << *r.error;
    ASSERT_EQ(r.scrape.samples.size(), 20u);
    const auto& first = r.scrape.samples[0];
    EXPECT_EQ(first.name, "http_requests_total");
    EXPECT_EQ(first.labels, (PromLabels{{"method", "post"}, {"code", "200"}}));
    EXPECT_EQ(first.value, 1027);
    const auto& dos = r.scrape.samples[2];
    EXPECT_EQ(dos.labels[0].second, "C:\\DIR\\FILE.TXT");
    EXPECT_EQ(dos.labels[1].second, "Cannot find file:\n\"FILE.TXT\"");
    EXPECT_EQ(dos.value, 1.458255915e9);
    EXPECT_TRUE(std::isinf(r.scrape.samples[4].value));
    EXPECT_EQ(
        prom_family(r.scrape, "http_request_duration_seconds_bucket"),
        (std::pair<std::string, PromType>{"http_request_duration_seconds", PromType::histogram}));
    EXPECT_EQ(prom_family(r.scrape, "rpc_duration_seconds_count").second, PromType::summary);
    EXPECT_EQ(prom_family(r.scrape, "metric_without_timestamp_and_labels").second,
              PromType::untyped);
}

TEST(PromText, ReadsOpenMetricsToItsEof) {
    const auto r = parse_prom_text(
        "# TYPE acme_http_router_request_seconds summary\n"
        "# UNIT acme_http_router_request_seconds seconds\n"
        "acme_http_router_request_seconds_sum{path=\"/api/v1\",method=\"GET\"} 9036.32\n"
        "acme_http_router_request_seconds_count{path=\"/api/v1\",method=\"GET\"} 807283.0\n"
        "acme_http_router_request_seconds_created{path=\"/api/v1\",method=\"GET\"} 1605281325.0\n"
        "# TYPE foo counter\n"
        "foo_total 17.0 1520879607.789 # {id=\"counter-test\"} 5\n"
        "foo_created 1520872607.123\n"
        "# EOF\n"
        "this is not read\n");
    ASSERT_FALSE(r.error) << *r.error;
    EXPECT_TRUE(r.scrape.eof);
    ASSERT_EQ(r.scrape.samples.size(), 5u);
    EXPECT_EQ(r.scrape.units.at("acme_http_router_request_seconds"), "seconds");
    EXPECT_EQ(prom_family(r.scrape, "foo_total"),
              (std::pair<std::string, PromType>{"foo", PromType::counter}));
    EXPECT_EQ(r.scrape.samples[3].value, 17.0);
}

TEST(PromText, GarbageIsAnErrorNamingTheLine) {
    const auto html = parse_prom_text("<html>\n<body>502 Bad Gateway</body>\n");
    ASSERT_TRUE(html.error);
    EXPECT_EQ(*html.error, "line 1: expected a metric name");
    const auto value = parse_prom_text("# TYPE a gauge\na 1\nb{x=\"1\"} one\n");
    ASSERT_TRUE(value.error);
    EXPECT_EQ(*value.error, "line 3: \"one\" is no value for b");
    EXPECT_TRUE(parse_prom_text("a{x=\"1} 2\n").error);
    EXPECT_TRUE(parse_prom_text("# TYPE a kounter\n").error);
}

TEST(PromSelector, MatchesAsPrometheusDoes) {
    auto parsed = parse_prom_selector(R"(node_cpu_seconds_total{mode!="idle", cpu=~"1|2"})");
    ASSERT_EQ(parsed.index(), 0u) << std::get<1>(parsed);
    const auto& s = std::get<0>(parsed);
    EXPECT_TRUE(s.matches("node_cpu_seconds_total", {{"cpu", "1"}, {"mode", "user"}}));
    EXPECT_FALSE(s.matches("node_cpu_seconds_total", {{"cpu", "1"}, {"mode", "idle"}}));
    // Anchored: "1|2" does not match "12".
    EXPECT_FALSE(s.matches("node_cpu_seconds_total", {{"cpu", "12"}, {"mode", "user"}}));
    EXPECT_FALSE(s.matches("node_load1", {{"cpu", "1"}}));
    auto absent = parse_prom_selector(R"(up{job!~".+"})");
    ASSERT_EQ(absent.index(), 0u);
    EXPECT_TRUE(std::get<0>(absent).matches("up", {}));
    auto by_name = parse_prom_selector(R"({__name__=~"nginx_.*"})");
    ASSERT_EQ(by_name.index(), 0u);
    EXPECT_TRUE(std::get<0>(by_name).matches("nginx_up", {}));
}

TEST(PromSelector, RefusesWhatPrometheusRefuses) {
    for (const char* bad : {"node_cpu{mode=idle}", "node_cpu{mode==\"x\"}", "node_cpu{",
                            "{mode=~\".*\"}", "a b", "x{y=~\"(\"}", "x{y=~\"a{2000}\"}"}) {
        const auto r = parse_prom_selector(bad);
        EXPECT_EQ(r.index(), 1u) << bad;
    }
}

TEST(PromHistogramQuantile, InterpolatesInsideTheBucket) {
    // The documentation's histogram: 144320 observations; the median's rank 72160 is in
    // (0.1, 0.2] holding 100392 - 33444 = 66948, 72160 - 33444 = 38716 into it.
    const PromBuckets b = {{0.05, 24054}, {0.1, 33444}, {0.2, 100392},
                           {0.5, 129389}, {1, 133988},  {HUGE_VAL, 144320}};
    EXPECT_DOUBLE_EQ(prom_histogram_quantile(0.5, b), 0.1 + 0.1 * 38716.0 / 66948.0);
    // The first bucket counts from 0: rank 14432 of 24054 in [0, 0.05].
    EXPECT_DOUBLE_EQ(prom_histogram_quantile(0.1, b), 0.05 * 14432.0 / 24054.0);
    // A rank in +Inf gives the highest finite bound.
    EXPECT_DOUBLE_EQ(prom_histogram_quantile(0.99, b), 1.0);
    EXPECT_TRUE(std::isnan(prom_histogram_quantile(0.5, {{1, 0}, {HUGE_VAL, 0}})));
    EXPECT_TRUE(std::isnan(prom_histogram_quantile(0.5, {{1, 3}, {2, 5}})));
}

PromScrape scrape(std::string_view text) {
    auto r = parse_prom_text(text);
    EXPECT_FALSE(r.error) << *r.error;
    return r.scrape;
}

PromSelector selector(std::string_view text) {
    return std::get<0>(parse_prom_selector(text));
}

TEST(PromSeries, CountersBecomeRatesGaugesStayHistogramsQuantiles) {
    PromSeries series(
        {selector("reqs_total{code!=\"500\"}"), selector("conns"), selector("lat_seconds")}, 50);
    const auto a = scrape(
        "# TYPE reqs_total counter\nreqs_total{code=\"200\"} 100\nreqs_total{code=\"500\"} 7\n"
        "conns 3\n# TYPE lat_seconds histogram\nlat_seconds_bucket{le=\"0.1\"} 10\n"
        "lat_seconds_bucket{le=\"1\"} 20\nlat_seconds_bucket{le=\"+Inf\"} 20\n"
        "lat_seconds_sum 4\nlat_seconds_count 20\n");
    const auto first = series.values(a, 0);
    EXPECT_EQ(first, (nlohmann::json{{"prom.conns", 3}}));
    series.remember(a);
    // 2 s later: 40 more 200s; 100 more observations, 50 of them under 0.1 and 50 in (0.1, 1].
    const auto b = scrape(
        "# TYPE reqs_total counter\nreqs_total{code=\"200\"} 140\nreqs_total{code=\"500\"} 9\n"
        "conns 5\n# TYPE lat_seconds histogram\nlat_seconds_bucket{le=\"0.1\"} 60\n"
        "lat_seconds_bucket{le=\"1\"} 120\nlat_seconds_bucket{le=\"+Inf\"} 120\n"
        "lat_seconds_sum 40\nlat_seconds_count 120\n");
    const auto v = series.values(b, 2.0);
    EXPECT_DOUBLE_EQ(v.at("prom.reqs_total:rate{code=\"200\"}").get<double>(), 20.0);
    EXPECT_FALSE(v.contains("prom.reqs_total:rate{code=\"500\"}"));
    EXPECT_EQ(v.at("prom.conns").get<double>(), 5.0);
    EXPECT_DOUBLE_EQ(v.at("prom.lat_seconds_count:rate").get<double>(), 50.0);
    // Rank 50 of 100: the end of the first bucket; rank 90: 40 of 50 into (0.1, 1].
    EXPECT_DOUBLE_EQ(v.at("prom.lat_seconds:p50").get<double>(), 0.1);
    EXPECT_DOUBLE_EQ(v.at("prom.lat_seconds:p90").get<double>(), 0.1 + 0.9 * 40.0 / 50.0);
    EXPECT_FALSE(v.contains("prom.lat_seconds_sum"));
    series.remember(b);
    // A restarted server: the counter went down to 10, which is 10 since the reset.
    const auto c = scrape("# TYPE reqs_total counter\nreqs_total{code=\"200\"} 10\n");
    EXPECT_DOUBLE_EQ(series.values(c, 1.0).at("prom.reqs_total:rate{code=\"200\"}").get<double>(),
                     10.0);
}

TEST(PromSeries, SummaryQuantilesAndTheCap) {
    PromSeries series({selector("rpc_duration_seconds"), selector("http_requests_total")}, 3);
    const auto doc = scrape(kDocExample);
    const auto v = series.values(doc, 0);
    EXPECT_EQ(v.at("prom.rpc_duration_seconds:q0.01").get<double>(), 3102);
    EXPECT_EQ(v.at("prom.rpc_duration_seconds:q0.05").get<double>(), 3272);
    EXPECT_EQ(v.at("prom.rpc_duration_seconds:p50").get<double>(), 4773);
    EXPECT_EQ(v.size(), 3u);
    EXPECT_EQ(series.hidden(), 2u);  // p90 and p99
}

}  // namespace
}  // namespace perflab
