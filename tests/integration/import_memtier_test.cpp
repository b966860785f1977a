// SPDX-License-Identifier: MIT
// `perflab import` of memtier_benchmark's --json-out-file: tests/fixtures/memtier/run-3s.json
// is in memtier 2.3's exact layout, its latencies made by the rules of MemtierFixture.java,
// which this test applies again to know the counts and percentiles. memtier gives no latency
// per second, so the run is summary only: `show` says so and refuses a window.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "import_helpers.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

const std::string kFixture =
    std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/memtier/run-3s.json";

// MemtierFixture.java's rules.
Expected gets() {
    Expected e;
    for (int64_t i = 0; i < 1200; ++i)
        e.latencies_us.push_back(i % 100 == 0 ? 12000 + 8 * (i / 100) : 104 + 8 * (i * 7919 % 250));
    return e;
}

Expected sets() {
    Expected e;
    for (int64_t j = 0; j < 120; ++j)
        e.latencies_us.push_back(152 + 16 * (j * 31 % 100));
    return e;
}

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

TEST_F(ImportMemtier, JsonOutFileBecomesASummaryOnlyCacheRun) {
    const Output imported = perflab({"import", kFixture, "--db", db});
    ASSERT_EQ(imported.code, 0) << imported.err;
    EXPECT_EQ(imported.out, "1\n");
    EXPECT_NE(imported.err.find("1320 requests from memtier results"), std::string::npos)
        << imported.err;

    const json shown = show(1);
    EXPECT_EQ(shown["run"]["kind"], "cache");
    EXPECT_EQ(shown["run"]["status"], "imported");
    EXPECT_EQ(shown["run"]["summary_only"], true);
    EXPECT_EQ(shown["run"]["started_at_ms"], 1772366400123);
    const std::string notes = shown["run"]["notes"];
    EXPECT_NE(notes.find("memtier_benchmark"), std::string::npos) << notes;
    EXPECT_NE(notes.find("run-3s.json"), std::string::npos) << notes;
    const json& ops = shown["summary"]["ops"];
    EXPECT_EQ(ops.size(), 2u) << ops.dump();  // get and set: memtier's Waits and Totals are not ops
    expect_op(ops, "get", gets());
    expect_op(ops, "set", sets());

    const Output text = perflab({"show", "1", "--db", db});
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("Summary only"), std::string::npos) << text.out;
    const Output window = perflab({"show", "1", "--db", db, "--from", "1s", "--to", "2s"});
    EXPECT_EQ(window.code, 2);
    EXPECT_NE(window.err.find("summary only"), std::string::npos) << window.err;
}

TEST_F(ImportMemtier, PercentilesAloneAreTheRunsLatencies) {
    // The same run without its histograms: the listed percentiles must read back as printed.
    std::ifstream in(kFixture);
    json doc = json::parse(in);
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
        for (const auto& [key, p] : {std::pair{"p50", "p50.000"}, std::pair{"p99", "p99.000"}}) {
            const double printed_us = file["Percentile Latencies"][p].get<double>() * 1000;
            const double ours = stored["latency_us"][key].get<double>();
            EXPECT_GE(ours, printed_us - 0.5) << key;
            EXPECT_LE(ours, printed_us * (1 + 1.0 / 1024) + 0.5) << key;
        }
    }
}

TEST_F(ImportMemtier, BadFilesExit2AndStoreNothing) {
    const std::string whole = read_file(kFixture);
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
    EXPECT_EQ(perflab({"runs", "--db", db, "--json"}).out.find("\"id\""), std::string::npos);
}

// Found by tests/fuzz/memtier: a number beyond a double's range or a byte count of another
// type escaped as nlohmann's exceptions, and one second far off made a tick of every second
// before it until the memory ran out.
TEST_F(ImportMemtier, AbsurdNumbersAreRefusedNamingThem) {
    const std::string whole = read_file(kFixture);
    std::string huge = whole;
    huge.replace(huge.find("1772366400123"), 13, "1e400");
    dir.write("huge.json", huge);
    json bytes = json::parse(whole);
    bytes["ALL STATS"]["Gets"]["Time-Serie"]["1"]["Bytes RX"] = "lots";
    dir.write("bytes.json", bytes.dump(1, '\t'));
    json far = json::parse(whole);
    far["ALL STATS"]["Gets"]["Time-Serie"]["99999999"] = {{"Count", 1}};
    dir.write("far.json", far.dump(1, '\t'));
    const std::pair<const char*, const char*> cases[] = {
        {"huge.json", "line 34: not valid JSON: 1e400 is beyond a double's range"},
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
