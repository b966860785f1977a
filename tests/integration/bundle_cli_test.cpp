// SPDX-License-Identifier: MIT
// Run bundles through the perflab binary: runs with probes, an SLO verdict, a search, notes
// and tags go out of one history as one .perflab file and into another whole, ids mapped;
// a second import of the same runs and a bundle with one changed byte are refused; a bundle
// this version wrote (committed) opens in every later one.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "memcached_server.h"
#include "process.h"

namespace perflab {
namespace {

using nlohmann::json;
using test::Output;

Output perflab(std::vector<std::string> args) {
    args.insert(args.begin(), PERFLAB_BINARY);
    return test::run(args, 180);
}

std::vector<int64_t> ids_in(const std::string& out) {
    std::vector<int64_t> ids;
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) ids.push_back(std::stoll(line));
    return ids;
}

// A cache run's max-rate search with an SLO, memcached probed on the side and the local host
// sampled: everything a run can store but agents.
json search_spec(const test::MemcachedServer& server) {
    return {{"name", "bundle search"},
            {"kind", "cache"},
            {"tick_ms", 250},
            {"cache", {{"servers", {server.endpoint()}}, {"keys", {{"count", 500}}}}},
            {"slo", {{"error_rate", 0.01}, {"latency_ms", {{"p99", 200}}}}},
            {"search",
             {{"rate_from", 100},
              {"rate_to", 400},
              {"step_s", 1},
              {"precision", 0.5},
              {"warmup_s", 0},
              {"confirm_s", 0},
              {"concurrency", 2}}},
            {"probes", {{{"local", true}}, {{"memcached", server.endpoint()}}}}};
}

// `ops` gets (cache-aside: a set follows each miss) under an SLO.
json closed_spec(const test::MemcachedServer& server, int ops) {
    return {{"name", "bundle ops"},
            {"kind", "cache"},
            {"phases", {{{"ops", ops}, {"concurrency", 2}}}},
            {"cache", {{"servers", {server.endpoint()}}, {"keys", {{"count", 200}}}}},
            {"slo", {{"error_rate", 0.01}}}};
}

int64_t run_stored(const test::TempDir& dir, const std::string& db, const json& spec) {
    dir.write("spec.json", spec.dump());
    const auto out = perflab({"run", dir.file("spec.json"), "--db", db, "--json", "--quiet"});
    EXPECT_EQ(out.code, 0) << out.err;
    // "run 12 stored in PATH" on stderr.
    const auto at = out.err.find("run ");
    if (at == std::string::npos) {
        ADD_FAILURE() << "no stored run in " << out.err;
        return 0;
    }
    return std::stoll(out.err.substr(at + 4));
}

json show(const std::string& db, int64_t id) {
    const auto out = perflab({"show", std::to_string(id), "--db", db, "--json"});
    EXPECT_EQ(out.code, 0) << out.err;
    auto j = json::parse(out.out, nullptr, false);
    EXPECT_TRUE(j.is_object()) << out.out;
    return j;
}

std::string exported(const std::string& db, int64_t id, const std::string& format) {
    const auto out = perflab({"export", std::to_string(id), "--format", format, "--db", db});
    EXPECT_EQ(out.code, 0) << out.err;
    return out.out;
}

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(Bundle, RunsGoIntoAnotherHistoryWholeWithTheirIdsMapped) {
    test::MemcachedServer server;
    test::TempDir dir;
    const std::string a = dir.file("a.db"), b = dir.file("b.db");
    const int64_t search = run_stored(dir, a, search_spec(server));
    const int64_t closed = run_stored(dir, a, closed_spec(server, 3000));
    ASSERT_GT(search, 0);
    ASSERT_GT(closed, 0);
    ASSERT_EQ(perflab({"note", std::to_string(search), "the knee is the server's", "--db", a}).code,
              0);
    ASSERT_EQ(perflab({"note", std::to_string(search), "warm", "--at", "1s", "--db", a}).code, 0);
    ASSERT_EQ(perflab({"tag", std::to_string(closed), "nightly", "--db", a}).code, 0);

    // The other history has a run of its own first: the bundle's runs get new ids.
    const int64_t own = run_stored(dir, b, closed_spec(server, 100));
    ASSERT_GT(own, 0);
    const std::string file = dir.file("runs.perflab");
    const auto written = perflab({"export", std::to_string(search) + "," + std::to_string(closed),
                                  "--format", "bundle", "-o", file, "--db", a});
    ASSERT_EQ(written.code, 0) << written.err;
    const auto imported = perflab({"import", file, "--db", b});
    ASSERT_EQ(imported.code, 0) << imported.err;
    const auto ids = ids_in(imported.out);
    ASSERT_EQ(ids.size(), 2u) << imported.out;
    EXPECT_NE(ids[0], own);
    EXPECT_NE(ids[1], own);
    EXPECT_NE(imported.err.find("run " + std::to_string(search) + " of the bundle stored as run " +
                                std::to_string(ids[0])),
              std::string::npos)
        << imported.err;

    for (size_t i = 0; i < 2; ++i) {
        const int64_t from = i == 0 ? search : closed;
        json there = show(a, from), here = show(b, ids[i]);
        EXPECT_EQ(here["run"]["id"], ids[i]);
        there["run"].erase("id");
        here["run"].erase("id");
        EXPECT_EQ(here, there) << "run " << from;
        EXPECT_EQ(exported(b, ids[i], "csv"), exported(a, from, "csv"));
        EXPECT_EQ(exported(b, ids[i], "probes-csv"), exported(a, from, "probes-csv"));
    }
    // What was stored came along, not an empty run shaped as one.
    const json s = show(b, ids[0]);
    EXPECT_TRUE(s["summary"]["search"].is_object()) << s["summary"].dump();
    EXPECT_NE(s["run"]["notes"].get<std::string>().find("the knee is the server's"),
              std::string::npos);
    EXPECT_FALSE(s["servers"].empty()) << "the memcached probe's samples";
    EXPECT_GE(exported(b, ids[0], "probes-csv").size(), 200u);
    EXPECT_FALSE(s["hosts"].empty());
    const json c = show(b, ids[1]);
    EXPECT_EQ(c["summary"]["ops"]["get"]["count"], 3000) << c["summary"].dump();
    EXPECT_TRUE(c["summary"]["slo"]["passed"].get<bool>()) << c["summary"].dump();
    EXPECT_EQ(c["run"]["tags"], json::array({"nightly"}));

    // The same runs again: refused, saying where they are.
    const auto again = perflab({"import", file, "--db", b});
    EXPECT_EQ(again.code, 2);
    EXPECT_NE(again.err.find("stored here already"), std::string::npos) << again.err;
    EXPECT_NE(again.err.find("as run " + std::to_string(ids[0])), std::string::npos) << again.err;
    // The history that wrote it has them too.
    EXPECT_EQ(perflab({"import", file, "--db", a}).code, 2);
}

TEST(Bundle, AChangedByteIsRefusedAndNothingIsStored) {
    test::MemcachedServer server;
    test::TempDir dir;
    const std::string a = dir.file("a.db"), b = dir.file("b.db");
    const int64_t id = run_stored(dir, a, closed_spec(server, 500));
    ASSERT_GT(id, 0);
    const std::string file = dir.file("run.perflab");
    ASSERT_EQ(
        perflab({"export", std::to_string(id), "--format", "bundle", "-o", file, "--db", a}).code,
        0);
    const std::string whole = bytes_of(file);
    ASSERT_GT(whole.size(), 200u);
    // A byte of the header's digest, of the size line and of the body, each in turn.
    for (const size_t at : {size_t(30), whole.find("bytes ") + 7, whole.size() / 2}) {
        std::string bad = whole;
        bad[at] = char(bad[at] ^ 0x20);
        dir.write("bad.perflab", bad);
        const auto out = perflab({"import", dir.file("bad.perflab"), "--db", b});
        EXPECT_EQ(out.code, 2) << "byte " << at;
        EXPECT_NE(out.err.find("not whole"), std::string::npos) << out.err;
    }
    // Cut short.
    dir.write("cut.perflab", whole.substr(0, whole.size() - 10));
    const auto cut = perflab({"import", dir.file("cut.perflab"), "--db", b});
    EXPECT_EQ(cut.code, 2);
    EXPECT_NE(cut.err.find("does not match its SHA-256"), std::string::npos) << cut.err;
    // A size line that asks for 8 GiB, under a digest that matches it: refused before the
    // allocation, since deflate's 1032:1 cannot make the body that large.
    const size_t body_at = whole.find('\n', whole.find("bytes ")) + 1;
    dir.write("rest", "bytes 8589934592\n" + whole.substr(body_at));
    const auto digest = test::run({"sha256sum", dir.file("rest")}, 30);
    ASSERT_EQ(digest.code, 0) << digest.err;
    dir.write("big.perflab", "PERFLAB-BUNDLE 1\nsha256 " + digest.out.substr(0, 64) + "\n" +
                                 bytes_of(dir.file("rest")));
    const auto big = perflab({"import", dir.file("big.perflab"), "--db", b});
    EXPECT_EQ(big.code, 2);
    EXPECT_NE(big.err.find("size line is damaged"), std::string::npos) << big.err;
    // None of those stored a run.
    const auto runs = perflab({"runs", "--db", b, "--json"});
    EXPECT_TRUE(runs.code != 0 || json::parse(runs.out, nullptr, false).empty()) << runs.out;
    // The whole file still imports.
    EXPECT_EQ(perflab({"import", file, "--db", b}).code, 0);
}

TEST(Bundle, BadRequestsNameWhatIsWrong) {
    test::MemcachedServer server;
    test::TempDir dir;
    const std::string db = dir.file("a.db");
    const int64_t id = run_stored(dir, db, closed_spec(server, 100));
    ASSERT_GT(id, 0);
    const std::string file = dir.file("x.perflab");
    const auto missing = perflab(
        {"export", std::to_string(id) + ",999", "--format", "bundle", "-o", file, "--db", db});
    EXPECT_EQ(missing.code, 2);
    EXPECT_NE(missing.err.find("999"), std::string::npos) << missing.err;
    EXPECT_FALSE(std::filesystem::exists(file));
    const auto no_file = perflab({"export", std::to_string(id), "--format", "bundle", "--db", db});
    EXPECT_EQ(no_file.code, 2);
    EXPECT_NE(no_file.err.find("-o"), std::string::npos) << no_file.err;
    const auto several = perflab(
        {"export", std::to_string(id) + "," + std::to_string(id), "--format", "md", "--db", db});
    EXPECT_EQ(several.code, 2);
    EXPECT_NE(several.err.find("--format bundle"), std::string::npos) << several.err;
    ASSERT_EQ(
        perflab({"export", std::to_string(id), "--format", "bundle", "-o", file, "--db", db}).code,
        0);
    const auto named = perflab({"import", file, "--name", "other", "--db", dir.file("b.db")});
    EXPECT_EQ(named.code, 2);
    EXPECT_NE(named.err.find("keep their names"), std::string::npos) << named.err;
    // Not a bundle and not another tool's file either.
    dir.write("junk.perflab", "PERFLAB-BUNDLE 1\nsha256 abc\n");
    const auto junk = perflab({"import", dir.file("junk.perflab"), "--db", dir.file("b.db")});
    EXPECT_EQ(junk.code, 2);
    EXPECT_NE(junk.err.find("sha256 line is damaged"), std::string::npos) << junk.err;
}

// tests/fixtures/store/bundle-v1.perflab (README there): written by the first PerfLab that
// wrote bundles (schema 17), of a closed phase of 3000 ops (cache-aside) against a fresh
// memcached, whose own counters read cmd_get 3000, cmd_set 202, get_hits 2798, get_misses
// 202 after it. Later versions migrate it.
TEST(Bundle, TheFirstVersionsBundleOpens) {
    test::TempDir dir;
    const std::string db = dir.file("b.db");
    const auto out = perflab(
        {"import", PERFLAB_SOURCE_DIR "/tests/fixtures/store/bundle-v1.perflab", "--db", db});
    ASSERT_EQ(out.code, 0) << out.err;
    const auto ids = ids_in(out.out);
    ASSERT_EQ(ids.size(), 1u);
    const json s = show(db, ids[0]);
    EXPECT_EQ(s["run"]["name"], "bundle v1");
    EXPECT_EQ(s["run"]["status"], "completed");
    EXPECT_EQ(s["summary"]["ops"]["get"]["count"], 3000) << s["summary"].dump();
    EXPECT_EQ(s["summary"]["ops"]["set"]["count"], 202);
    EXPECT_EQ(s["summary"]["hits"], 2798);
    EXPECT_EQ(s["summary"]["misses"], 202);
    EXPECT_EQ(s["run"]["tags"], json::array({"v1"}));
    EXPECT_NE(s["run"]["notes"].get<std::string>().find("written by schema 17"), std::string::npos);
    EXPECT_FALSE(exported(db, ids[0], "csv").empty());
}

}  // namespace
}  // namespace perflab
