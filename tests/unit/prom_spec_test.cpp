// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "model/spec.h"

namespace perflab {
namespace {

nlohmann::json with_probe(const nlohmann::json& probe) {
    return {{"name", "t"},
            {"kind", "http"},
            {"phases", {{{"duration_s", 1}, {"rate", 10}}}},
            {"http", {{"targets", {{{"url", "http://127.0.0.1:9/"}}}}}},
            {"probes", {probe}}};
}

TEST(PrometheusSpec, ReadsEveryKeyAndRoundTrips) {
    const nlohmann::json probe = {{"prometheus", "http://127.0.0.1:9113/metrics"},
                                  {"metrics", {"nginx_connections_active", "up{job=~\"a|b\"}"}},
                                  {"interval_ms", 5000},
                                  {"via", "admin@db1:2222"},
                                  {"key", "/keys/id"}};
    const SpecResult r = parse_spec(with_probe(probe));
    ASSERT_TRUE(r) << r.error_text();
    const ProbeSpec& p = r.spec->probes.at(0);
    EXPECT_EQ(p.type, ProbeSpec::Type::prometheus);
    EXPECT_EQ(p.url, "http://127.0.0.1:9113/metrics");
    EXPECT_EQ(p.metrics,
              (std::vector<std::string>{"nginx_connections_active", "up{job=~\"a|b\"}"}));
    EXPECT_EQ(p.interval_ms, 5000);
    EXPECT_EQ(p.target, "admin@db1:2222");
    EXPECT_EQ(p.key, "/keys/id");
    EXPECT_EQ(to_json(*r.spec).at("probes").at(0), probe);
    const SpecResult again = parse_spec(to_json(*r.spec));
    ASSERT_TRUE(again) << again.error_text();
    EXPECT_EQ(to_json(*again.spec), to_json(*r.spec));
}

// Each mistake is named by its field.
TEST(PrometheusSpec, BadProbesNameTheirField) {
    const std::vector<std::pair<nlohmann::json, std::string>> cases = {
        {{{"prometheus", "http://127.0.0.1:1/metrics"}}, "probes[0].metrics"},
        {{{"prometheus", "http://127.0.0.1:1/metrics"}, {"metrics", nlohmann::json::array()}},
         "probes[0].metrics"},
        {{{"prometheus", "127.0.0.1:9100"}, {"metrics", {"up"}}}, "probes[0].prometheus"},
        {{{"prometheus", "http://127.0.0.1:1/"}, {"metrics", {"up", "up{"}}},
         "probes[0].metrics[1]"},
        {{{"prometheus", "http://127.0.0.1:1/"}, {"metrics", {"up"}}, {"via", "db1"}},
         "probes[0].via"},
        {{{"prometheus", "http://127.0.0.1:1/"}, {"metrics", {"up"}}, {"interval_ms", 5}},
         "probes[0].interval_ms"},
        {{{"memcached", "127.0.0.1:11211"}, {"metrics", {"up"}}}, "probes[0].metrics"},
        {{{"prometheus", "http://127.0.0.1:1/"}, {"metrics", {"up"}}, {"per_core", true}},
         "probes[0].per_core"},
    };
    for (const auto& [probe, field] : cases) {
        const SpecResult r = parse_spec(with_probe(probe));
        EXPECT_FALSE(r) << probe.dump();
        EXPECT_NE(r.error_text().find(field), std::string::npos)
            << probe.dump() << ": " << r.error_text();
    }
}

}  // namespace
}  // namespace perflab
