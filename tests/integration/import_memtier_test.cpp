// SPDX-License-Identifier: MIT
// `perflab import` of what a real memtier_benchmark 2.3.0 wrote against memcached 1.6.18
// (tests/fixtures/memtier: each run's NAME.README has the command, memtier's version and the
// server's `stats` after the run; tests/bench/memtier_fixtures.sh makes them again): the
// --json-out-file and the --hdr-file-prefix logs. The stored run must say what memtier printed
// (NAME.stdout.txt) and what the server counted. memtier gives no latency per second, so the
// JSON's run is summary only: `show` says so and refuses a window.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "import_helpers.h"
#include "memcached_server.h"
#include "memtier_fixture.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

class ImportMemtier : public ::testing::Test {
  protected:
    TempDir dir;
    std::string db = dir.file("runs.db");

    json show(int64_t id) {
        const Output out = perflab({"show", std::to_string(id), "--db", db, "--json"});
        EXPECT_EQ(out.code, 0) << out.err;
        return json::parse(out.out);
    }
};

int64_t us_of_ms(double ms) {
    return std::llround(ms * 1000);
}

TEST_F(ImportMemtier, RealRunHasMemtiersAndTheServersFigures) {
    const json file = memtier_json("real-3s");
    const json& runtime = file["ALL STATS"]["Runtime"];
    const auto server = memcached_stats("real-3s");
    const Output imported = perflab({"import", memtier_fixture("real-3s.json"), "--db", db});
    ASSERT_EQ(imported.code, 0) << imported.err;

    const json shown = show(1);
    const json& run = shown["run"];
    EXPECT_EQ(run["kind"], "cache");
    EXPECT_EQ(run["status"], "imported");
    EXPECT_EQ(run["summary_only"], true);
    EXPECT_EQ(run["started_at_ms"], runtime["Start time"]);
    EXPECT_EQ(run["ended_at_ms"],
              runtime["Start time"].get<int64_t>() + runtime["Total duration"].get<int64_t>());
    const json& s = shown["summary"];
    const json& ops = s["ops"];
    ASSERT_EQ(ops.size(), 2u) << ops.dump();
    // Counts, hits and misses: the server's own.
    EXPECT_EQ(ops["get"]["count"], server.at("cmd_get"));
    EXPECT_EQ(ops["set"]["count"], server.at("cmd_set"));
    EXPECT_EQ(s["hits"], server.at("get_hits"));
    EXPECT_EQ(s["misses"], server.at("get_misses"));
    EXPECT_DOUBLE_EQ(s["hit_rate"].get<double>(),
                     double(server.at("get_hits")) / double(server.at("cmd_get")));
    // The duration memtier measured; its rates then within their two decimals and its
    // duration's whole ms (it divides by µs).
    EXPECT_DOUBLE_EQ(s["duration_s"].get<double>(), runtime["Total duration"].get<double>() / 1000);
    const MemtierRow totals = memtier_printed("real-3s", "Totals");
    EXPECT_NEAR(s["rate"].get<double>(), totals.ops_per_s,
                totals.ops_per_s / runtime["Total duration"].get<double>() + 0.005);
    // Value bytes, as PerfLab's cache runs count them: 100 B per set and per hit.
    const uint64_t size = file["configuration"]["data_size"];
    EXPECT_EQ(s["bytes_out"], server.at("cmd_set") * size);
    EXPECT_EQ(s["bytes_in"], server.at("get_hits") * size);

    // Latencies as memtier printed them: each of its buckets at the value it reports.
    for (const auto& [memtier, op] : {std::pair{"Gets", "get"}, std::pair{"Sets", "set"}}) {
        SCOPED_TRACE(op);
        const json& theirs = file["ALL STATS"][memtier];
        const json& ours = ops[op]["latency_us"];
        const MemtierRow printed = memtier_printed("real-3s", memtier);
        EXPECT_EQ(ours["p50"], us_of_ms(printed.p50_ms));
        EXPECT_EQ(ours["min"], us_of_ms(theirs["Min Latency"]));
        EXPECT_EQ(ours["max"], us_of_ms(theirs["Max Latency"]));
        // memtier's rank is round(p·n), PerfLab's ceil(p·n): where they differ PerfLab's is the
        // next value up, which may be in the next bucket.
        const auto n = theirs["Count"].get<double>();
        for (const auto& [key, p] : {std::pair{"p99", 99.0}, std::pair{"p999", 99.9}}) {
            const double printed_ms = key == std::string("p99") ? printed.p99_ms : printed.p999_ms;
            if (std::floor(p / 100 * n + 0.5) == std::ceil(p / 100 * n))
                EXPECT_EQ(ours[key], us_of_ms(printed_ms)) << key;
            else
                EXPECT_GE(ours[key].get<int64_t>(), us_of_ms(printed_ms)) << key;
        }
        // The mean is memtier's sum of latencies over its count: its Accumulated Latency (whole
        // ms) within a millisecond over all of them.
        const double mean =
            theirs["Accumulated Latency"].get<double>() * 1000 / theirs["Count"].get<double>();
        EXPECT_NEAR(ours["mean"].get<double>(), mean, 0.01);
    }
    EXPECT_EQ(ops["get"]["latency_us"]["p50"], 95);  // memtier's 0.095 ms, not its bucket's 88

    // One answer everywhere: runs, the JSON export.
    const json runs = json::parse(perflab({"runs", "--db", db, "--json"}).out);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0]["hit_rate"], s["hit_rate"]);
    EXPECT_EQ(runs[0]["duration_s"], s["duration_s"]);
    const Output exported = perflab({"export", "1", "--db", db, "--format", "json"});
    ASSERT_EQ(exported.code, 0) << exported.err;
    const json whole = json::parse(exported.out);
    EXPECT_EQ(whole["summary"]["hits"], server.at("get_hits"));
    EXPECT_EQ(whole["summary"]["misses"], server.at("get_misses"));
    uint64_t tick_hits = 0;
    for (const auto& tick : whole["ticks"])
        tick_hits += tick["hits"].get<uint64_t>();
    EXPECT_EQ(tick_hits, server.at("get_hits"));

    const Output text = perflab({"show", "1", "--db", db});
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("Summary only"), std::string::npos) << text.out;
    const Output window = perflab({"show", "1", "--db", db, "--from", "1s", "--to", "2s"});
    EXPECT_EQ(window.code, 2);
    EXPECT_NE(window.err.find("summary only"), std::string::npos) << window.err;
}

// Hits and misses give one answer in show, runs, compare and the CSV export: the server's.
TEST_F(ImportMemtier, HitsAreTheSameEverywhere) {
    for (const char* run : {"real-3s", "interrupted"})
        ASSERT_EQ(perflab({"import", memtier_fixture(std::string(run) + ".json"), "--db", db}).code,
                  0);
    const json compared = json::parse(perflab({"compare", "1", "2", "--db", db, "--json"}).out);
    const json runs = json::parse(perflab({"runs", "--db", db, "--json"}).out);
    int64_t id = 0;
    for (const char* run : {"real-3s", "interrupted"}) {
        SCOPED_TRACE(run);
        ++id;
        const auto server = memcached_stats(run);
        const json shown = show(id);
        EXPECT_EQ(shown["summary"]["hits"], server.at("get_hits"));
        const json hit_rate = shown["summary"]["hit_rate"];
        EXPECT_EQ(compared["figures"]["hit_rate"]["values"][size_t(id - 1)], hit_rate);
        // Latencies too: compare reads a summary-only run's from its summary, not its ticks.
        EXPECT_EQ(compared["figures"]["p99_us"]["values"][size_t(id - 1)],
                  shown["summary"]["latency_us"]["p99"]);
        for (const auto& r : runs) {
            if (r["id"] == id) {
                EXPECT_EQ(r["hit_rate"], hit_rate);
            }
        }
        const std::string csv = dir.file(std::string(run) + ".csv");
        ASSERT_EQ(
            perflab({"export", std::to_string(id), "--db", db, "--format", "csv", "-o", csv}).code,
            0);
        const Output sums = test::run(
            {"python3", "-c",
             "import csv, sys\n"
             "rows = list(csv.DictReader(open(sys.argv[1], newline='')))\n"
             "print(sum(int(r['hits']) for r in rows), sum(int(r['misses']) for r in rows))",
             csv});
        ASSERT_EQ(sums.code, 0) << sums.err;
        EXPECT_EQ(sums.out, std::to_string(server.at("get_hits")) + " " +
                                std::to_string(shown["summary"]["misses"].get<uint64_t>()) + "\n");
    }
}

// memtier's configuration as the stored spec: compare then lists what differed between two
// memtier runs, not PerfLab's defaults against them.
TEST_F(ImportMemtier, ConfigurationBecomesTheStoredSpec) {
    const json c = memtier_json("real-3s")["configuration"];
    ASSERT_EQ(perflab({"import", memtier_fixture("real-3s.json"), "--db", db}).code, 0);
    const json spec = show(1)["spec"];
    const json& cache = spec["cache"];
    EXPECT_EQ(cache["servers"], json::array({c["server"].get<std::string>() + ":" +
                                             std::to_string(c["port"].get<int>())}));
    EXPECT_EQ(cache["protocol"], "text");  // memcache_text
    EXPECT_EQ(cache["workload"], "ratio");
    EXPECT_EQ(cache["set_ratio"], 1);  // "ratio": "1:10" is sets:gets
    EXPECT_EQ(cache["get_ratio"], 10);
    EXPECT_EQ(cache["keys"]["count"],
              c["key_maximum"].get<uint64_t>() - c["key_minimum"].get<uint64_t>() + 1);
    EXPECT_EQ(cache["keys"]["prefix"], c["key_prefix"]);
    EXPECT_EQ(cache["keys"]["distribution"], "uniform");  // "R:R"
    EXPECT_EQ(cache["value_size"]["min"], c["data_size"]);
    EXPECT_EQ(cache["value_size"]["max"], c["data_size"]);
    EXPECT_EQ(cache["threads"], c["threads"]);
    EXPECT_EQ(cache["pipeline"], c["pipeline"]);
    ASSERT_EQ(spec["phases"].size(), 1u);
    EXPECT_EQ(spec["phases"][0]["concurrency"], c["clients"].get<int>() * c["threads"].get<int>());
    EXPECT_EQ(spec["phases"][0]["duration_s"], c["test_time"]);
    EXPECT_EQ(spec["imported_from"]["tool"], "memtier_benchmark");
    EXPECT_EQ(spec["imported_from"]["configuration"], c);
    EXPECT_EQ(spec["imported_from"]["bytes"], "value");
}

// The stored spec runs as it is against a memcached of the test's, and the two runs'
// bytes mean the same: 100 value bytes per set sent and per hit received on both sides, not
// memtier's wire bytes against PerfLab's value bytes.
TEST_F(ImportMemtier, StoredSpecRunsAndBytesCompareLikeForLike) {
    ASSERT_EQ(perflab({"import", memtier_fixture("real-3s.json"), "--db", db}).code, 0);
    json spec = show(1)["spec"];  // imported_from and all
    MemcachedServer server;
    spec["cache"]["servers"] = {server.endpoint()};
    spec["phases"][0]["duration_s"] = 1;
    dir.write("spec.json", spec.dump());
    const Output ran = perflab({"run", dir.file("spec.json"), "--db", db, "-q"});
    ASSERT_EQ(ran.code, 0) << ran.err;
    const uint64_t size = memtier_json("real-3s")["configuration"]["data_size"];
    for (int64_t id : {1, 2}) {
        SCOPED_TRACE(id);
        const json s = show(id)["summary"];
        ASSERT_GT(s["ops"]["set"]["count"].get<uint64_t>(), 0u);
        ASSERT_GT(s["hits"].get<uint64_t>(), 0u);
        EXPECT_EQ(s["bytes_out"], s["ops"]["set"]["count"].get<uint64_t>() * size);
        EXPECT_EQ(s["bytes_in"], s["hits"].get<uint64_t>() * size);
    }
}

// Stopped by Ctrl+C two seconds into a 30 s run: the duration is the 1.974 s it ran, and the
// run says it was interrupted. The server counted the gets in flight at the stop, which
// memtier did not: at most one per connection more.
TEST_F(ImportMemtier, InterruptedRunEndsWhereMemtierStopped) {
    const json file = memtier_json("interrupted");
    const json& runtime = file["ALL STATS"]["Runtime"];
    ASSERT_EQ(runtime["Interrupted"], "true");
    const auto server = memcached_stats("interrupted");
    ASSERT_EQ(perflab({"import", memtier_fixture("interrupted.json"), "--db", db}).code, 0);
    const json shown = show(1);
    EXPECT_NE(shown["run"]["notes"].get<std::string>().find("interrupted"), std::string::npos)
        << shown["run"]["notes"];
    EXPECT_EQ(shown["spec"]["imported_from"]["interrupted"], true);
    EXPECT_DOUBLE_EQ(shown["summary"]["duration_s"].get<double>(),
                     runtime["Total duration"].get<double>() / 1000);
    EXPECT_EQ(shown["run"]["ended_at_ms"],
              runtime["Start time"].get<int64_t>() + runtime["Total duration"].get<int64_t>());
    const uint64_t gets = shown["summary"]["ops"]["get"]["count"];
    const int connections =
        file["configuration"]["clients"].get<int>() * file["configuration"]["threads"].get<int>();
    EXPECT_LE(gets, server.at("cmd_get"));
    EXPECT_GE(gets + uint64_t(connections), server.at("cmd_get"));
    EXPECT_EQ(shown["summary"]["hits"], server.at("get_hits"));
    const MemtierRow printed = memtier_printed("interrupted", "Totals");
    // memtier divides by its duration in µs, the file has whole ms: one ms apart at most.
    EXPECT_NEAR(shown["summary"]["rate"].get<double>(), printed.ops_per_s,
                printed.ops_per_s / runtime["Total duration"].get<double>() + 0.005);
}

// A memtier file without "Hits/sec" and "Misses/sec" in its sections: the shape of files
// written before memtier 1.4, whose JSON did not have them (the shape the importer's check for
// the keys serves). No such memtier is on this machine: real-3s-no-hits.json is the real run
// real-3s.json with those lines taken out (grep -v -e '"Hits/sec"' -e '"Misses/sec"'), so its
// gets are memcached's cmd_get while its hits and misses are unknown: null in show --json (the
// run and its phase), runs --json, the JSON and CSV exports, "-" in show's text, compare and
// the Markdown report; never 0.
TEST_F(ImportMemtier, FileWithoutHitsHasThemUnknownNeverZero) {
    const auto server = memcached_stats("real-3s");
    ASSERT_EQ(perflab({"import", memtier_fixture("real-3s-no-hits.json"), "--db", db}).code, 0);
    ASSERT_EQ(perflab({"import", memtier_fixture("real-3s.json"), "--db", db}).code, 0);
    const json shown = show(1);
    EXPECT_EQ(shown["summary"]["ops"]["get"]["count"], server.at("cmd_get"));
    for (const json* summary : {&shown["summary"], &shown["summary"]["phases"][0]})
        for (const char* figure : {"hits", "misses", "hit_rate"})
            EXPECT_TRUE((*summary)[figure].is_null()) << figure << ": " << summary->dump();
    EXPECT_EQ(show(2)["summary"]["hits"], server.at("get_hits"));
    // The value bytes received are the hits': unknown with them; those sent stand.
    EXPECT_TRUE(shown["summary"]["bytes_in"].is_null()) << shown["summary"].dump();
    EXPECT_EQ(shown["summary"]["bytes_out"], show(2)["summary"]["bytes_out"]);
    EXPECT_GT(shown["summary"]["bytes_out"].get<uint64_t>(), 0u);
    const Output text = perflab({"show", "1", "--db", db});
    EXPECT_NE(text.out.find("hit rate - (hits and misses unknown"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("hit rate 0"), std::string::npos) << text.out;
    for (const auto& r : json::parse(perflab({"runs", "--db", db, "--json"}).out))
        if (r["id"] == 1) {
            EXPECT_TRUE(r["hit_rate"].is_null()) << r.dump();
        }
    const json compared = json::parse(perflab({"compare", "1", "2", "--db", db, "--json"}).out);
    EXPECT_TRUE(compared["figures"]["hit_rate"]["values"][0].is_null()) << compared.dump();
    const Output compared_text = perflab({"compare", "1", "2", "--db", db});
    ASSERT_EQ(compared_text.code, 0) << compared_text.err;
    std::istringstream lines(compared_text.out);
    bool row = false;
    for (std::string line; std::getline(lines, line);)
        if (line.find("hit_rate") != std::string::npos ||
            line.find("hit rate") != std::string::npos) {
            row = true;
            EXPECT_NE(line.find(" - "), std::string::npos) << line;
        }
    EXPECT_TRUE(row) << compared_text.out;

    const std::string exported = dir.file("run.json");
    ASSERT_EQ(perflab({"export", "1", "--db", db, "--format", "json", "-o", exported}).code, 0);
    const json whole = json::parse(read_file(exported));
    EXPECT_TRUE(whole["summary"]["hits"].is_null());
    ASSERT_FALSE(whole["ticks"].empty());
    for (const auto& tick : whole["ticks"]) {
        EXPECT_TRUE(tick["hits"].is_null()) << tick.dump();
        EXPECT_TRUE(tick["misses"].is_null()) << tick.dump();
    }
    const std::string csv = dir.file("run.csv");
    ASSERT_EQ(perflab({"export", "1", "--db", db, "--format", "csv", "-o", csv}).code, 0);
    const Output cells = test::run(
        {"python3", "-c",
         "import csv, sys\n"
         "rows = list(csv.DictReader(open(sys.argv[1], newline='')))\n"
         "print(len(rows), sorted({r[k] for r in rows for k in ('hits', 'misses', 'hit_rate')}))",
         csv});
    ASSERT_EQ(cells.code, 0) << cells.err;
    EXPECT_EQ(cells.out, std::to_string(whole["ticks"].size()) + " ['']\n");
    const std::string markdown = dir.file("run.md");
    ASSERT_EQ(perflab({"export", "1", "--db", db, "--format", "md", "-o", markdown}).code, 0);
    EXPECT_NE(read_file(markdown).find("hit rate - (hits and misses unknown)"), std::string::npos);
}

// memtier's --hdr-file-prefix log: HdrHistogram_c's layout, an absolute end time where the
// Java writer puts a length. One interval of the run's 3 s with every get and set.
TEST_F(ImportMemtier, HdrFilePrefixLogImportsAsTheRunItLogged) {
    const json file = memtier_json("real-3s");
    const json& runtime = file["ALL STATS"]["Runtime"];
    const auto server = memcached_stats("real-3s");
    const Output imported =
        perflab({"import", memtier_fixture("real-3s.FULL_RUN_1.hlog"), "--db", db});
    ASSERT_EQ(imported.code, 0) << imported.err;
    EXPECT_NE(imported.err.find("from hlog results"), std::string::npos) << imported.err;
    const json shown = show(1);
    EXPECT_EQ(shown["run"]["started_at_ms"], runtime["Start time"]);
    EXPECT_DOUBLE_EQ(shown["summary"]["duration_s"].get<double>(),
                     runtime["Total duration"].get<double>() / 1000);
    EXPECT_EQ(shown["summary"]["requests"], server.at("cmd_get") + server.at("cmd_set"));
    const json& all = shown["summary"]["ops"]["all"]["latency_us"];
    EXPECT_EQ(all["p50"], us_of_ms(memtier_printed("real-3s", "Totals").p50_ms));
    EXPECT_EQ(all["max"], us_of_ms(file["ALL STATS"]["Totals"]["Max Latency"]));
    // Its 2 significant digits are what the .hgrm export claims.
    const Output hgrm = perflab({"export", "1", "--db", db, "--format", "hgrm"});
    ASSERT_EQ(hgrm.code, 0) << hgrm.err;
    EXPECT_NE(hgrm.out.find("SubBuckets     =          256]"), std::string::npos) << hgrm.out;

    // An end before its start is no interval of any writer.
    std::string log = read_file(memtier_fixture("real-3s.FULL_RUN_1.hlog"));
    const size_t at = log.find("\n1796565224.587,1796565227.587,");
    ASSERT_NE(at, std::string::npos);
    log.replace(at + 1, 29, "1796565227.587,1796565224.587");
    dir.write("backwards.hlog", log);
    const Output backwards = perflab({"import", dir.file("backwards.hlog"), "--db", db});
    EXPECT_EQ(backwards.code, 2);
    EXPECT_NE(backwards.err.find("line 5: EndTimestamp: before the interval's StartTimestamp"),
              std::string::npos)
        << backwards.err;
}

// memtier's histogram has 2 significant digits: the .hgrm export says so rather than
// claiming PerfLab's 2048 sub-buckets.
TEST_F(ImportMemtier, HgrmExportClaimsMemtiersPrecision) {
    ASSERT_EQ(perflab({"import", memtier_fixture("real-3s.json"), "--db", db}).code, 0);
    const Output hgrm = perflab({"export", "1", "--db", db, "--format", "hgrm"});
    ASSERT_EQ(hgrm.code, 0) << hgrm.err;
    EXPECT_NE(hgrm.out.find("SubBuckets     =          256]"), std::string::npos) << hgrm.out;
    EXPECT_EQ(hgrm.out.find("SubBuckets     =         2048]"), std::string::npos) << hgrm.out;
}

TEST_F(ImportMemtier, PercentilesAloneAreTheRunsLatencies) {
    // The same run without its histograms: the listed percentiles must read back as printed.
    json doc = memtier_json("real-3s");
    for (const char* op : {"Gets", "Sets", "Waits", "Totals"})
        doc["ALL STATS"][op]["Percentile Latencies"].erase("Histogram log format");
    dir.write("percentiles.json", doc.dump(1, '\t'));
    const Output imported =
        perflab({"import", dir.file("percentiles.json"), "--db", db, "--format", "memtier"});
    ASSERT_EQ(imported.code, 0) << imported.err;
    const json shown = show(1);
    EXPECT_EQ(shown["run"]["summary_only"], true);
    EXPECT_NE(shown["run"]["notes"].get<std::string>().find("percentiles"), std::string::npos);
    for (const auto& [memtier, op] : {std::pair{"Gets", "get"}, std::pair{"Sets", "set"}}) {
        SCOPED_TRACE(op);
        const json& file = doc["ALL STATS"][memtier];
        const json& stored = shown["summary"]["ops"][op];
        EXPECT_EQ(stored["count"], file["Count"]);
        EXPECT_EQ(stored["errors"], 0);
        for (const auto& [key, p] :
             {std::pair{"p50", "p50.00"}, std::pair{"p99", "p99.00"}, std::pair{"p999", "p99.90"}})
            EXPECT_EQ(stored["latency_us"][key], us_of_ms(file["Percentile Latencies"][p])) << key;
    }
}

TEST_F(ImportMemtier, BadFilesExit2AndStoreNothing) {
    const std::string whole = read_file(memtier_fixture("real-3s.json"));
    dir.write("cut.json", whole.substr(0, whole.size() / 2));
    const Output cut = perflab({"import", dir.file("cut.json"), "--db", db});
    EXPECT_EQ(cut.code, 2);
    EXPECT_NE(cut.err.find("not valid JSON"), std::string::npos) << cut.err;

    json doc = json::parse(whole);
    doc["ALL STATS"]["Gets"]["Time-Serie"]["1"]["Count"] = "many";
    dir.write("count.json", doc.dump(1, '\t'));
    const Output count = perflab({"import", dir.file("count.json"), "--db", db});
    EXPECT_EQ(count.code, 2);
    EXPECT_NE(count.err.find("ALL STATS.Gets.Time-Serie.1.Count: \"many\" is not a whole number"),
              std::string::npos)
        << count.err;

    // A second well past the duration memtier measured is no stub of its last.
    json late = json::parse(whole);
    late["ALL STATS"]["Gets"]["Time-Serie"]["9"] = {{"Count", 1}};
    dir.write("late.json", late.dump(1, '\t'));
    const Output past = perflab({"import", dir.file("late.json"), "--db", db});
    EXPECT_EQ(past.code, 2);
    EXPECT_NE(past.err.find("ALL STATS.Runtime.Total duration: 3000 ms ends before second 9"),
              std::string::npos)
        << past.err;
    EXPECT_EQ(perflab({"runs", "--db", db, "--json"}).out.find("\"id\""), std::string::npos);
}

// Found by tests/fuzz/memtier: a number beyond a double's range or a byte count of another
// type escaped as nlohmann's exceptions, and one second far off made a tick of every second
// before it until the memory ran out.
TEST_F(ImportMemtier, AbsurdNumbersAreRefusedNamingThem) {
    const std::string whole = read_file(memtier_fixture("real-3s.json"));
    const json doc = json::parse(whole);
    const std::string start =
        std::to_string(doc["ALL STATS"]["Runtime"]["Start time"].get<int64_t>());
    std::string huge = whole;
    const size_t at = huge.find(start);
    huge.replace(at, start.size(), "1e400");
    const auto line = 1 + std::count(huge.begin(), huge.begin() + std::ptrdiff_t(at), '\n');
    dir.write("huge.json", huge);
    json bytes = doc;
    bytes["ALL STATS"]["Gets"]["Time-Serie"]["1"]["Bytes RX"] = "lots";
    dir.write("bytes.json", bytes.dump(1, '\t'));
    json far = doc;
    far["ALL STATS"]["Gets"]["Time-Serie"]["99999999"] = {{"Count", 1}};
    dir.write("far.json", far.dump(1, '\t'));
    const std::pair<std::string, std::string> cases[] = {
        {"huge.json",
         "line " + std::to_string(line) + ": not valid JSON: 1e400 is beyond a double's range"},
        {"bytes.json", "ALL STATS.Gets.Time-Serie.1.Bytes RX: \"lots\" is not a whole number"},
        {"far.json",
         "ALL STATS.Gets.Time-Serie.99999999: past the 31.0 days allowed; give --max-span"},
    };
    for (const auto& [file, message] : cases) {
        const Output out = perflab({"import", dir.file(file), "--db", db});
        EXPECT_EQ(out.code, 2) << file;
        EXPECT_NE(out.err.find(message), std::string::npos) << out.err;
    }
    EXPECT_EQ(perflab({"runs", "--db", db, "--json"}).out.find("\"id\""), std::string::npos);
}

}  // namespace
}  // namespace perflab::test
