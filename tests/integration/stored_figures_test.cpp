// SPDX-License-Identifier: MIT
// Stored = printed: what `perflab run --json` printed for a run is what `show`, `runs` and
// `compare` say of it later, for an HTTP run with 500s and transport errors and for a cache
// run; HTTP runs carry no cache fields in any output; a cache run's .hgrm export is per op.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "http_test_server.h"
#include "memcached_server.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

Output perflab(std::vector<std::string> args) {
    args.insert(args.begin(), PERFLAB_BINARY);
    return run(args, 120);
}

json parsed(const Output& o) {
    EXPECT_EQ(o.code, 0) << o.err;
    return json::parse(o.out);
}

// Every key of each document, compared at every depth; numbers of both kinds compare by
// value, so 3 and 3.0 agree. Each difference is named by its JSON pointer.
void differences(const json& a, const json& b, const std::string& at,
                 std::vector<std::string>& out) {
    if (a.is_object() && b.is_object()) {
        for (const auto& [k, v] : a.items())
            if (!b.contains(k))
                out.push_back(at + "/" + k + " only in the first");
            else
                differences(v, b[k], at + "/" + k, out);
        for (const auto& [k, v] : b.items())
            if (!a.contains(k)) out.push_back(at + "/" + k + " only in the second");
        return;
    }
    if (a.is_array() && b.is_array()) {
        if (a.size() != b.size()) out.push_back(at + ": arrays of different sizes");
        for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
            differences(a[i], b[i], at + "/" + std::to_string(i), out);
        return;
    }
    const bool equal = a.is_number() && b.is_number() ? a.get<double>() == b.get<double>() : a == b;
    if (!equal) out.push_back(at + ": " + a.dump() + " vs " + b.dump());
}

std::string joined(const std::vector<std::string>& lines) {
    std::string s;
    for (const auto& l : lines)
        s += l + "\n";
    return s;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

// A cache field in any spelling: "hit_rate", "hits", "hit rate", "hit:", a CSV column "hits".
// An HTML report's inline charts are base64, where any word may appear: they are left out.
void expect_no_cache_fields(const std::string& what, const std::string& text) {
    std::string t = lower(text);
    for (size_t at = 0; (at = t.find("data:image/png;base64,", at)) != std::string::npos;)
        t.erase(at, t.find('"', at) - at);
    for (const char* word : {"hit_rate", "hits", "hit rate", "hit:", "misses"})
        EXPECT_EQ(t.find(word), std::string::npos) << what << " has \"" << word << "\":\n" << text;
}

// The "Total count" of an .hgrm footer; -1 without one.
long long hgrm_total(const std::string& text) {
    const std::string label = "Total count    =";
    const auto at = text.find(label);
    return at == std::string::npos ? -1 : std::stoll(text.substr(at + label.size()));
}

std::string percent(double share) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f%%", share * 100);
    return buf;
}

// `show ID --json`'s summary against the printed one, `runs --json` and `compare --json`
// against the printed figures.
void expect_stored_equals_printed(const std::string& db, const json& printed) {
    const json shown = parsed(perflab({"show", "1", "--db", db, "--json"}));
    std::vector<std::string> diffs;
    // The servers' figures are beside the summary in show, as the agents' are.
    json summary = printed;
    summary.erase("servers");
    differences(summary, shown["summary"], "", diffs);
    EXPECT_TRUE(diffs.empty()) << "printed vs shown:\n" << joined(diffs);
    EXPECT_EQ(printed["servers"], shown["servers"]);

    const json runs = parsed(perflab({"runs", "--db", db, "--json"}));
    ASSERT_EQ(runs.size(), 1u);
    for (const char* key : {"success", "throughput", "rate", "error_rate"})
        EXPECT_EQ(runs[0][key].get<double>(), printed[key].get<double>()) << key;
    EXPECT_EQ(runs[0]["ops"], printed["requests"]);

    const json compared = parsed(perflab({"compare", "1", "1", "--db", db, "--json"}));
    for (const char* key : {"success", "rate", "error_rate"})
        EXPECT_EQ(compared["figures"][key]["values"][0].get<double>(), printed[key].get<double>())
            << key;
    // compare shows the throughput its interval is about: ok operations over the ticks' time,
    // a cache run's span as `run` divides by, but for HTTP a little more than the first send
    // to the last reply that `run` divides by.
    const double throughput = printed["throughput"].get<double>();
    EXPECT_NEAR(compared["figures"]["throughput"]["values"][0].get<double>(), throughput,
                throughput * 0.01);
    const Output text = perflab({"compare", "1", "1", "--db", db});
    EXPECT_NE(text.out.find(percent(printed["success"].get<double>())), std::string::npos)
        << text.out;
}

class StoredFigures : public ::testing::Test {
  protected:
    TempDir dir;
    std::string db = dir.file("runs.db");
};

TEST_F(StoredFigures, HttpRunWithFailuresIsStoredAsPrinted) {
    HttpTestServer server;
    const json spec = {
        {"name", "failures"},
        {"kind", "http"},
        {"tick_ms", 250},
        {"phases", {{{"rate", 300}, {"duration_s", 1.5}}, {{"rate", 300}, {"duration_s", 1.5}}}},
        {"http", {{"targets", {{{"url", server.url("/")}}}}, {"threads", 2}}}};
    dir.write("spec.json", spec.dump());
    Process run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "--json", "-q"},
                dir.file("out.json"), dir.file("err.txt"));
    // ok, then 500s, then connections reset and closed unanswered, then ok again: each
    // switch when the server has read so many requests.
    const std::vector<std::pair<uint64_t, HttpTestServer::Mode>> steps = {
        {150, HttpTestServer::Mode::error_500},
        {300, HttpTestServer::Mode::reset},
        {400, HttpTestServer::Mode::close_early},
        {500, HttpTestServer::Mode::ok}};
    for (const auto& [count, mode] : steps) {
        ASSERT_TRUE(wait_until([&] { return server.requests() >= count; })) << count;
        server.set_mode(mode);
    }
    ASSERT_EQ(run.wait(), 0) << read_file(dir.file("err.txt"));
    const json printed = json::parse(read_file(dir.file("out.json")));
    ASSERT_GT(printed["status_codes"].value("500", 0), 0) << printed.dump(2);
    ASSERT_FALSE(printed["errors"].empty()) << printed.dump(2);
    ASSERT_GT(printed["success"].get<double>(), 0);
    ASSERT_LT(printed["success"].get<double>(), 1);
    ASSERT_EQ(printed["phases"].size(), 2u);

    expect_stored_equals_printed(db, printed);

    const std::string id = "1";
    expect_no_cache_fields("run --json", read_file(dir.file("out.json")));
    expect_no_cache_fields("show", perflab({"show", id, "--db", db}).out);
    expect_no_cache_fields("show --json", perflab({"show", id, "--db", db, "--json"}).out);
    expect_no_cache_fields("runs", perflab({"runs", "--db", db}).out);
    expect_no_cache_fields("runs --json", perflab({"runs", "--db", db, "--json"}).out);
    expect_no_cache_fields("compare", perflab({"compare", id, id, "--db", db}).out);
    expect_no_cache_fields("compare --json",
                           perflab({"compare", id, id, "--db", db, "--json"}).out);
    for (const char* format : {"md", "html", "csv", "json", "hgrm"}) {
        const Output e = perflab({"export", id, "--db", db, "--format", format});
        ASSERT_EQ(e.code, 0) << format << ": " << e.err;
        expect_no_cache_fields(std::string("export ") + format, e.out);
    }
    // An HTTP run's requests are one distribution: one .hgrm, every answered request in it
    // (a reset or an early close got no response, and has no latency).
    long long answered = 0;
    for (const auto& [code, n] : printed["status_codes"].items())
        answered += n.get<long long>();
    ASSERT_LT(answered, printed["requests"].get<long long>()) << printed.dump(2);
    const Output hgrm = perflab({"export", id, "--db", db, "--format", "hgrm"});
    EXPECT_EQ(hgrm_total(hgrm.out), answered) << hgrm.out;
}

TEST_F(StoredFigures, CacheRunIsStoredAsPrintedAndExportsAHistogramPerOp) {
    MemcachedServer server;
    const json spec = {{"name", "cache"},
                       {"kind", "cache"},
                       {"tick_ms", 200},
                       {"phases", {{{"duration_s", 1.0}, {"concurrency", 2}}}},
                       {"cache",
                        {{"servers", {server.endpoint()}},
                         {"keys", {{"count", 2000}}},
                         {"value_size", {{"min", 64}, {"max", 512}}}}}};
    dir.write("spec.json", spec.dump());
    const json printed =
        parsed(perflab({"run", dir.file("spec.json"), "--db", db, "--json", "-q"}));
    ASSERT_GT(printed["ops"]["get"]["count"].get<uint64_t>(), 0u);
    ASSERT_GT(printed["ops"]["set"]["count"].get<uint64_t>(), 0u);

    expect_stored_equals_printed(db, printed);

    const Output e =
        perflab({"export", "1", "--db", db, "--format", "hgrm", "-o", dir.file("lat.hgrm")});
    ASSERT_EQ(e.code, 0) << e.err;
    for (const char* op : {"get", "set"}) {
        const std::string text = read_file(dir.file(std::string("lat.") + op + ".hgrm"));
        EXPECT_EQ(hgrm_total(text), printed["ops"][op]["count"].get<long long>()) << op << text;
    }
    EXPECT_TRUE(read_file(dir.file("lat.hgrm")).empty()) << "no merged histogram";
}

}  // namespace
}  // namespace perflab::test
