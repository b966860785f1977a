// SPDX-License-Identifier: MIT
#include "model/spec.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "model/run_seed.h"

namespace perflab {
namespace {

using nlohmann::json;

json valid_cache() {
    return json::parse(R"({
      "name": "t", "kind": "cache", "tick_ms": 500, "tags": ["a"], "notes": "n",
      "phases": [{"duration_s": 60, "rate": 1600},
                 {"duration_s": 60, "rate": 100, "rate_to": 2000},
                 {"duration_s": 30, "concurrency": 128},
                 {"ops": 1000000, "concurrency": 8}],
      "cache": {"servers": ["127.0.0.1:11211", "[::1]:11212"], "protocol": "binary",
                "workload": "ratio", "get_ratio": 10, "set_ratio": 1,
                "keys": {"count": 1000000, "prefix": "key:", "distribution": "zipf", "zipf_s": 0.99},
                "value_size": {"min": 128, "max": 10240}, "ttl_s": 3000, "prefill": false}})");
}

std::vector<std::string> errors_of(const json& j) {
    std::vector<std::string> out;
    for (const auto& e : parse_spec(j).errors)
        out.push_back(e.text());
    return out;
}

bool has_error(const json& j, const std::string& text) {
    for (const auto& e : errors_of(j))
        if (e == text) return true;
    return false;
}

TEST(Spec, ParsesEveryDocumentedKey) {
    const auto r = parse_spec(valid_cache());
    ASSERT_TRUE(r) << r.error_text();
    const RunSpec& s = *r.spec;
    EXPECT_EQ(s.tick_ms, 500);
    ASSERT_EQ(s.phases.size(), 4u);
    EXPECT_TRUE(s.phases[0].open());
    EXPECT_EQ(*s.phases[1].rate_to, 2000);
    EXPECT_EQ(s.phases[2].concurrency, 128);
    EXPECT_EQ(s.phases[3].ops, 1000000u);
    ASSERT_TRUE(s.cache);
    EXPECT_EQ(s.cache->servers[1].host, "::1");
    EXPECT_EQ(s.cache->servers[1].port, 11212);
    EXPECT_EQ(s.cache->protocol, CacheProtocol::binary);
    EXPECT_EQ(s.cache->workload, CacheWorkload::ratio);
    EXPECT_EQ(s.cache->keys.distribution, KeyDistribution::zipf);
    EXPECT_EQ(s.cache->value_size.max, 10240u);
    EXPECT_EQ(s.planned_duration_s(), 150);
    EXPECT_EQ(s.max_concurrency(), 128);
}

TEST(Spec, RoundTripsThroughJson) {
    const auto first = parse_spec(valid_cache());
    ASSERT_TRUE(first);
    const json normalised = to_json(*first.spec);
    const auto second = parse_spec(normalised);
    ASSERT_TRUE(second) << second.error_text();
    EXPECT_EQ(to_json(*second.spec), normalised);
}

TEST(Spec, SeedIsAnUnsigned64BitIntegerKeptExactly) {
    json j = valid_cache();
    j["seed"] = json::parse("18446744073709551615");
    const auto full = parse_spec(j);
    ASSERT_TRUE(full) << full.error_text();
    EXPECT_EQ(full.spec->seed, std::optional<uint64_t>(18446744073709551615ULL));
    EXPECT_EQ(to_json(*full.spec)["seed"].get<uint64_t>(), 18446744073709551615ULL);
    j["seed"] = 0;
    EXPECT_EQ(parse_spec(j).spec->seed, std::optional<uint64_t>(0));
    EXPECT_FALSE(parse_spec(valid_cache()).spec->seed.has_value());
    EXPECT_FALSE(to_json(*parse_spec(valid_cache()).spec).contains("seed"));
    for (const char* bad : {"-1", "1.5", "\"42\"", "18446744073709551616"}) {
        j["seed"] = json::parse(bad);
        EXPECT_TRUE(has_error(j, std::string("seed: expected an unsigned 64-bit integer, got ") +
                                     json::parse(bad).dump()))
            << bad;
    }
}

TEST(Spec, WithSeedDrawsOnlyWhenTheSpecHasNone) {
    const RunSpec unseeded = *parse_spec(valid_cache()).spec;
    const RunSpec a = with_seed(unseeded);
    const RunSpec b = with_seed(unseeded);
    ASSERT_TRUE(a.seed && b.seed);
    EXPECT_NE(*a.seed, *b.seed);
    EXPECT_LT(*a.seed, uint64_t{1} << 53);
    // What is stored is what ran: the drawn seed survives the spec's JSON form.
    EXPECT_EQ(parse_spec(to_json(a)).spec->seed, a.seed);
    EXPECT_EQ(with_seed(a).seed, a.seed);
}

TEST(Spec, StreamsOfARunDiffer) {
    const uint64_t run = 42;
    EXPECT_NE(stream_seed(run, 0, Stream::keys), stream_seed(run, 1, Stream::keys));
    EXPECT_NE(stream_seed(run, 0, Stream::keys), stream_seed(run, 0, Stream::values));
    EXPECT_NE(stream_seed(run, 0, Stream::keys), stream_seed(run + 1, 0, Stream::keys));
    EXPECT_EQ(stream_seed(run, 3, Stream::values), stream_seed(run, 3, Stream::values));
}

// An imported run's stored spec keeps the other tool's configuration under imported_from: it
// runs again as it is, and a value that is no object is named.
TEST(Spec, ImportedFromIsKeptOutOfTheRun) {
    json j = valid_cache();
    j["imported_from"] = {{"tool", "memtier_benchmark"}, {"configuration", {{"clients", 2}}}};
    EXPECT_EQ(errors_of(j), std::vector<std::string>{});
    const auto r = parse_spec(j);
    ASSERT_TRUE(r.spec);
    EXPECT_FALSE(to_json(*r.spec).contains("imported_from"));
    j["imported_from"] = "memtier";
    EXPECT_TRUE(
        has_error(j, "imported_from: an object (what an import kept of the tool's configuration)"));
}

TEST(Spec, NamesTheOffendingField) {
    json j = valid_cache();
    j["phases"][1]["rate"] = 0;
    EXPECT_TRUE(has_error(j, "phases[1].rate: must be > 0"));

    j = valid_cache();
    j["cache"]["value_size"] = {{"min", 20480}, {"max", 10240}};
    EXPECT_TRUE(has_error(j, "cache.value_size: min 20480 > max 10240"));

    j = valid_cache();
    j["cache"]["colour"] = "blue";
    EXPECT_TRUE(has_error(j, "cache.colour: unknown key"));

    j = valid_cache();
    j["tick_ms"] = "fast";
    EXPECT_TRUE(has_error(j, "tick_ms: expected an integer, got string"));

    j = valid_cache();
    j["cache"]["protocol"] = "udp";
    EXPECT_TRUE(
        has_error(j, R"(cache.protocol: "udp" is not one of "text", "binary", "meta", "redis")"));

    j = valid_cache();
    j["cache"]["servers"] = {"localhost"};
    EXPECT_TRUE(has_error(j, R"(cache.servers[0]: "localhost" is not host:port)"));

    j = valid_cache();
    j["phases"][2] = {{"duration_s", 5}};
    EXPECT_TRUE(
        has_error(j, R"(phases[2]: needs "rate" (open model) or "concurrency" (closed model))"));

    // Found by tests/fuzz/spec: a whole float beyond int64 was converted, undefined behaviour.
    j = valid_cache();
    j["phases"][2]["concurrency"] = 1e61;
    EXPECT_TRUE(has_error(j, "phases[2].concurrency: must be between 1 and 100000, got 1e+61"));
    j["phases"][2]["concurrency"] = -1e61;
    EXPECT_TRUE(has_error(j, "phases[2].concurrency: must be between 1 and 100000, got -1e+61"));
}

// memtier's key patterns and value sizes: what they read as, what they round-trip to, and
// what is refused, naming the field.
TEST(Spec, KeyPatternsAndWeightedValueSizes) {
    json j = valid_cache();
    j["cache"]["keys"] = {
        {"count", 10000}, {"distribution", "gaussian"}, {"mean", 4000}, {"stddev", 1500}};
    j["cache"]["value_size"] = {{"weights", {{128, 70}, {4096, 25}, {51200, 5}}},
                                {"bytes", "random"}};
    const auto r = parse_spec(j);
    ASSERT_TRUE(r) << r.error_text();
    EXPECT_EQ(r.spec->cache->keys.distribution, KeyDistribution::gaussian);
    EXPECT_EQ(*r.spec->cache->keys.stddev, 1500);
    const ValueSize& size = r.spec->cache->value_size;
    EXPECT_EQ(size.min, 128u);
    EXPECT_EQ(size.max, 51200u);
    EXPECT_EQ(size.weighted.size(), 3u);
    EXPECT_TRUE(size.random_bytes);
    const auto again = parse_spec(to_json(*r.spec));
    ASSERT_TRUE(again) << again.error_text();
    EXPECT_EQ(to_json(*again.spec), to_json(*r.spec));

    j["cache"]["keys"]["stddev"] = 20000;
    EXPECT_TRUE(has_error(j, "cache.keys.stddev: must be in (0, count]"));
    j["cache"]["keys"] = {{"distribution", "uniform"}, {"mean", 5}};
    EXPECT_TRUE(has_error(
        j, R"(cache.keys.distribution: mean and stddev are for the "gaussian" distribution)"));
    j = valid_cache();
    j["cache"]["value_size"] = {{"weights", {{128, 70}, {4096, 0}}}};
    EXPECT_TRUE(has_error(
        j,
        "cache.value_size.weights[2]: expected [bytes up to 1048576, weight 1..1000000], got "
        "[4096,0]"));
    j["cache"]["value_size"] = {{"weights", {{128, 1}}}, {"max", 5}};
    EXPECT_TRUE(has_error(
        j,
        "cache.value_size.weights: expected [[bytes, weight], ...] (and no min or max beside it)"));
}

TEST(Spec, ReportsEveryProblemAtOnce) {
    json j = valid_cache();
    j["phases"][0]["rate"] = -1;
    j["cache"]["keys"]["count"] = 0;
    j["extra"] = true;
    EXPECT_GE(errors_of(j).size(), 3u);
}

TEST(Spec, KindNeedsItsSection) {
    json j = valid_cache();
    j.erase("cache");
    EXPECT_TRUE(has_error(j, "cache: required for a cache run"));
    j = valid_cache();
    j["kind"] = "http";
    EXPECT_TRUE(has_error(j, "http: required for an http run"));
}

TEST(Spec, RejectsMalformedJsonText) {
    const auto r = parse_spec_text("{\"kind\": ");
    EXPECT_FALSE(r);
    EXPECT_NE(r.error_text().find("not valid JSON"), std::string::npos);
}

TEST(Spec, HttpTargetsAreChecked) {
    json j = {{"kind", "http"},
              {"phases", {{{"duration_s", 1}, {"rate", 10}}}},
              {"http", {{"targets", {{{"url", "ftp://127.0.0.1/x"}}}}}}};
    EXPECT_TRUE(has_error(
        j, R"(http.targets[0].url: "ftp://127.0.0.1/x": scheme must be http:// or https://)"));
}

TEST(Spec, Http2KeysParseValidateAndRoundTrip) {
    json j = {
        {"kind", "http"},
        {"phases", {{{"duration_s", 1}, {"rate", 10}}}},
        {"http",
         {{"targets", {{{"url", "https://127.0.0.1/x"}}}}, {"http2", true}, {"max_streams", 250}}}};
    const auto parsed = parse_spec(j);
    ASSERT_TRUE(parsed) << parsed.error_text();
    EXPECT_TRUE(parsed.spec->http->http2);
    EXPECT_EQ(parsed.spec->http->max_streams, 250);
    const auto again = parse_spec(to_json(*parsed.spec));
    ASSERT_TRUE(again) << again.error_text();
    EXPECT_TRUE(again.spec->http->http2);
    EXPECT_EQ(again.spec->http->max_streams, 250);

    const auto defaults = parse_spec(json{
        {"kind", "http"}, {"phases", j["phases"]}, {"http", {{"targets", j["http"]["targets"]}}}});
    ASSERT_TRUE(defaults);
    EXPECT_FALSE(defaults.spec->http->http2);
    EXPECT_EQ(defaults.spec->http->max_streams, 100);

    j["http"]["max_streams"] = 0;
    EXPECT_TRUE(has_error(j, "http.max_streams: must be between 1 and 1000, got 0"))
        << errors_of(j).front();
    j["http"]["max_streams"] = 1001;
    EXPECT_FALSE(parse_spec(j));
    j["http"]["max_streams"] = 10;
    j["http"]["keepalive"] = false;
    EXPECT_FALSE(parse_spec(j));
    EXPECT_NE(parse_spec(j).error_text().find("http.http2"), std::string::npos);
}

// Every field story the product was made for must stay a valid spec as the format grows.
TEST(Spec, FieldScenariosAreValid) {
    const std::filesystem::path dir = std::filesystem::path(PERFLAB_SOURCE_DIR) / "resources/specs";
    int seen = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".json") continue;
        const auto r = load_spec_file(entry.path().string());
        EXPECT_TRUE(r) << entry.path() << ":\n" << r.error_text();
        ++seen;
    }
    EXPECT_GE(seen, 6);
}

}  // namespace
}  // namespace perflab

namespace perflab {
namespace {

json templated_http() {
    return json::parse(R"({
      "kind": "http", "phases": [{"duration_s": 1, "rate": 10}],
      "http": {"targets": [
        {"url": "http://127.0.0.1:8080/item/{{seq}}?u={{uniform 1 9}}",
         "method": "POST", "headers": {"X-Id": "{{uuid}}"}, "content_type": "application/json",
         "body_template": "{\"u\": \"{{csv users.csv name random}}\"}",
         "expect": {"status": [200, 201], "body_contains": "ok", "body_regex": "o+k",
                    "json": {"path": "$.ok", "equals": true}, "max_bytes": 1000}}]},
      "slo": {"check_failure_rate": 0.01}})");
}

TEST(SpecTemplates, ParseAndRoundTrip) {
    const auto r = parse_spec(templated_http());
    ASSERT_TRUE(r) << r.error_text();
    const HttpTarget& t = r.spec->http->targets[0];
    EXPECT_EQ(t.body_template, "{\"u\": \"{{csv users.csv name random}}\"}");
    EXPECT_EQ(t.content_type, "application/json");
    ASSERT_TRUE(t.expect);
    EXPECT_EQ(t.expect->status, (std::vector<int>{200, 201}));
    EXPECT_EQ(t.expect->json_equals, "true");
    EXPECT_EQ(t.expect->max_bytes, 1000u);
    EXPECT_EQ(r.spec->slo->check_failure_rate, 0.01);
    const auto again = parse_spec(to_json(*r.spec));
    ASSERT_TRUE(again) << again.error_text();
    EXPECT_EQ(again.spec->http->targets[0].expect, t.expect);
    EXPECT_EQ(again.spec->http->targets[0].body_template, t.body_template);
    EXPECT_EQ(to_json(*again.spec), to_json(*r.spec));
}

TEST(SpecTemplates, NamesTheOffendingField) {
    json j = templated_http();
    auto& t = j["http"]["targets"][0];
    t["url"] = "http://127.0.0.1:8080/{{foo}}";
    EXPECT_TRUE(has_error(j, "http.targets[0].url: unknown template \"foo\""));
    t["url"] = "http://127.0.0.1:{{uniform 1 9}}/";
    EXPECT_TRUE(has_error(
        j, "http.targets[0].url: templates may vary the path and query, not the host or port"));
    t["url"] = "http://127.0.0.1/";
    t["headers"]["X-Id"] = "{{uniform 5 1}}";
    EXPECT_TRUE(has_error(j, "http.targets[0].headers.X-Id: uniform: expected two integers A ≤ B"));
    t["headers"] = json::object();
    t["body_template"] = "{{csv users.csv}}";
    EXPECT_TRUE(has_error(j,
                          "http.targets[0].body_template: csv: expected FILE COLUMN, optionally "
                          "followed by \"random\""));
    t["body"] = "x";
    EXPECT_TRUE(has_error(j,
                          "http.targets[0]: give one of \"body\", \"body_file\" and "
                          "\"body_template\""));
    t.erase("body");
    t["headers"]["content-type"] = "text/plain";
    EXPECT_TRUE(has_error(j, "http.targets[0].content_type: given twice: here and in \"headers\""));
}

TEST(SpecTemplates, ChecksAreValidated) {
    json j = templated_http();
    auto& e = j["http"]["targets"][0]["expect"];
    e["status"] = {200, 700};
    e["body_regex"] = "(";
    e["json"] = {{"path", "ok"}};
    e["colour"] = 1;
    const auto errors = errors_of(j);
    EXPECT_TRUE(has_error(j,
                          "http.targets[0].expect.status: expected status codes 100..599, such "
                          "as [200, 201]"));
    EXPECT_TRUE(has_error(j, "http.targets[0].expect.json.path: a JSON path starts with \"$\""));
    EXPECT_TRUE(has_error(j, "http.targets[0].expect.colour: unknown key"));
    bool regex = false;
    for (const auto& text : errors)
        regex = regex ||
                text.rfind("http.targets[0].expect.body_regex: not a regular expression", 0) == 0;
    EXPECT_TRUE(regex);
    json cache = valid_cache();
    cache["slo"] = {{"check_failure_rate", 0.1}};
    EXPECT_TRUE(has_error(cache, "slo.check_failure_rate: only an http run checks its responses"));
}

// Counts std::regex would read past a long's range (undefined behaviour, found by the spec
// parser's fuzzer) or expand into millions of states are refused before it compiles them;
// ordinary counts and back-references pass.
TEST(SpecTemplates, HugeRegexCountsAreRefusedBeforeCompiling) {
    json j = templated_http();
    auto& e = j["http"]["targets"][0]["expect"];
    e["body_regex"] = "a{99999999999999999999}";
    EXPECT_TRUE(has_error(j,
                          "http.targets[0].expect.body_regex: a repetition count over 1000 (at "
                          "character 2)"));
    e["body_regex"] = "[x]\\0009593376757802947924";
    EXPECT_TRUE(has_error(j,
                          "http.targets[0].expect.body_regex: an escape number over 1000 (at "
                          "character 4)"));
    e["body_regex"] = "(o+)k{2,1000} \\1 [{9999}]";
    EXPECT_TRUE(errors_of(j).empty()) << errors_of(j).front();
}

}  // namespace
}  // namespace perflab

namespace perflab {
namespace {

json session_http() {
    return json::parse(R"({
      "kind": "http", "phases": [{"duration_s": 1, "concurrency": 4}],
      "http": {"targets": [
        {"url": "http://127.0.0.1:8080/login", "method": "POST"},
        {"url": "http://127.0.0.1:8080/cart?t={{var token}}",
         "headers": {"X-Etag": "{{var etag}}"}}],
       "session": [
        {"target": 0, "capture": {"name": "token", "json": "$.token"}},
        {"target": 0, "think_ms": 20, "capture": {"name": "etag", "header": "ETag"}},
        {"target": 1, "think_ms": [500, 1500]}]}})");
}

bool has_error_starting(const json& j, const std::string& text) {
    for (const auto& e : errors_of(j))
        if (e.rfind(text, 0) == 0) return true;
    return false;
}

TEST(SpecSession, ParsesAndRoundTrips) {
    const auto r = parse_spec(session_http());
    ASSERT_TRUE(r) << r.error_text();
    const auto& steps = r.spec->http->session;
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[0].capture->json, "$.token");
    EXPECT_EQ(steps[1].think_min_ms, 20u);
    EXPECT_EQ(steps[1].think_max_ms, 20u);
    EXPECT_EQ(steps[1].capture->header, "ETag");
    EXPECT_EQ(steps[2].target, 1u);
    EXPECT_EQ(steps[2].think_min_ms, 500u);
    EXPECT_EQ(steps[2].think_max_ms, 1500u);
    const auto again = parse_spec(to_json(*r.spec));
    ASSERT_TRUE(again) << again.error_text();
    EXPECT_EQ(again.spec->http->session, steps);
    EXPECT_EQ(to_json(*again.spec), to_json(*r.spec));
}

TEST(SpecSession, NamesTheOffendingField) {
    json j = session_http();
    auto& steps = j["http"]["session"];
    steps[2]["target"] = 2;
    EXPECT_TRUE(has_error(j, "http.session[2].target: no target 2 (there are 2)"));
    steps[2]["target"] = 1;
    std::swap(steps[1], steps[2]);
    EXPECT_TRUE(has_error(
        j, "http.session[1].target: target 1 uses {{var etag}}, which no earlier step captures"));
    j = session_http();
    j["http"]["session"][1]["capture"] = {{"name", "e"}, {"header", "ETag"}, {"json", "$.e"}};
    EXPECT_TRUE(has_error(j,
                          "http.session[1].capture: give one of \"json\", \"header\" and "
                          "\"regex\""));
    EXPECT_TRUE(has_error(j,
                          "http.targets[1].headers.X-Etag: {{var etag}}: no step of "
                          "http.session captures \"etag\""));
    j = session_http();
    j["http"]["session"][0]["capture"] = {{"name", "token"}, {"regex", "token=\\w+"}};
    EXPECT_TRUE(has_error_starting(j, "http.session[0].capture.regex: needs a group"));
    j["http"]["session"][0] = {{"target", 0}, {"think_ms", -1}, {"wait", 1}};
    EXPECT_TRUE(has_error_starting(j, "http.session[0].think_ms: expected milliseconds"));
    EXPECT_TRUE(has_error(j, "http.session[0].wait: unknown key"));
    j = session_http();
    j["phases"][0] = {{"duration_s", 1}, {"rate", 100}};
    EXPECT_TRUE(has_error_starting(j, "phases[0].rate: a session's users are a closed model"));
    j = session_http();
    j["http"].erase("session");
    EXPECT_TRUE(
        has_error_starting(j, "http.targets[1].url: {{var token}}: no step of http.session"));
    j = session_http();
    j["http"]["http2"] = true;
    EXPECT_TRUE(has_error_starting(j, "http.session: sessions run over HTTP/1.1 for now"));
}

}  // namespace
}  // namespace perflab
