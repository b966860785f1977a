// SPDX-License-Identifier: MIT
// A Redis Cluster run's nodes (IntervalSample::nodes) are stored per tick and read back into
// every output: the run's and each phase's sums, a window's, the text, Markdown and HTML
// reports, the JSON export and compare; a database of schema 18, whose samples had no nodes,
// migrates keeping its runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/summary_report.h"
#include "process.h"
#include "run_compare.h"
#include "run_report.h"
#include "run_store.h"
#include "schema.h"
#include "stored_runs.h"

namespace perflab {
namespace {

const std::string kA = "127.0.0.1:7000";
const std::string kB = "[::1]:7001";

RunSpec cluster_spec() {
    const nlohmann::json j = {{"name", "cluster run"},
                              {"kind", "cache"},
                              {"tick_ms", 1000},
                              {"phases", {{{"duration_s", 60}, {"concurrency", 4}}}},
                              {"cache",
                               {{"servers", {kA}},
                                {"protocol", "redis"},
                                {"keys", {{"count", 1000}}},
                                {"redis", {{"cluster", true}}}}}};
    auto parsed = parse_spec(j);
    EXPECT_TRUE(parsed) << parsed.error_text();
    return *parsed.spec;
}

// Tick i: node A answered i + 1 GETs (i hits, one miss) and a SET; node B two GETs, both
// hits, and replied a MOVED in the odd ticks.
test::WrittenRun write_cluster_run(const std::string& db, int ticks) {
    return test::write_changed_run(
        db, cluster_spec(), ticks,
        [](IntervalSample& s, int i) {
            NodeTick& a = s.nodes[kA];
            a.calls = {{"get", uint64_t(i + 1)}, {"set", 1}};
            a.hits = uint64_t(i);
            a.misses = 1;
            NodeTick& b = s.nodes[kB];
            b.calls = {{"get", 2}};
            b.hits = 2;
            b.moved = uint64_t(i % 2);
        },
        [](RunSummary& summary) { summary.redis_cluster = true; });
}

TEST(StoredClusterNodes, EveryTickAndEveryOutputKeepsThem) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto written = write_cluster_run(db, 6);
    RunStore store(db, Access::read);
    const auto samples = store.samples(written.id);
    ASSERT_EQ(samples.size(), 6u);
    EXPECT_EQ(samples[3].nodes.at(kA).calls.at("get"), 4u);
    EXPECT_EQ(samples[3].nodes.at(kB).moved, 1u);

    // 1 + ... + 6 GETs at A, 15 of them hits; B: 12 GETs and hits, 3 MOVED.
    const RunSummary summary = store.summary(written.id);
    const auto& a = summary.overall.totals.nodes.at(kA);
    const auto& b = summary.overall.totals.nodes.at(kB);
    EXPECT_EQ(a.calls.at("get"), 21u);
    EXPECT_EQ(a.calls.at("set"), 6u);
    EXPECT_EQ(a.hits, 15u);
    EXPECT_EQ(a.misses, 6u);
    EXPECT_EQ(b.calls.at("get"), 12u);
    EXPECT_EQ(b.moved, 3u);
    ASSERT_EQ(summary.phases.size(), 1u);
    EXPECT_EQ(summary.phases[0].totals.nodes.at(kA).calls.at("get"), 21u);
    EXPECT_EQ(summary_json(summary)["nodes"][kB], nlohmann::json({{"calls", {{"get", 12}}},
                                                                  {"errors", 0},
                                                                  {"hits", 12},
                                                                  {"misses", 0},
                                                                  {"moved", 3},
                                                                  {"ask", 0}}));
    EXPECT_EQ(summary_json(summary).dump(), summary_json(written.summary).dump());
    // A window re-sums the ticks: the last two.
    const RunSummary window = store.summary(written.id, Window{4000, 6000});
    EXPECT_EQ(window.overall.totals.nodes.at(kA).calls.at("get"), 11u);
    EXPECT_EQ(window.overall.totals.nodes.at(kB).moved, 1u);

    const RunReport report = load_report(store, written.id);
    // A answered 27 of the 39 calls (69.2%), B 12 (30.8%).
    const std::string text = report_text(report);
    EXPECT_NE(text.find(kA), std::string::npos) << text;
    EXPECT_NE(text.find("69.2%"), std::string::npos) << text;
    EXPECT_NE(text.find("30.8%"), std::string::npos) << text;
    const std::string markdown = report_markdown(report);
    EXPECT_NE(markdown.find("## Cluster nodes"), std::string::npos) << markdown;
    EXPECT_NE(markdown.find("| " + kB + " | 12 | 0 | 0 | 12 | 0 | 100.00% | 3 | 0 | 30.8% |"),
              std::string::npos)
        << markdown;
    const std::string html = report_html(report);
    EXPECT_NE(html.find("<h2>Cluster nodes</h2>"), std::string::npos);
    EXPECT_NE(html.find(kB), std::string::npos);
    const auto exported = export_json(store, written.id);
    EXPECT_EQ(exported["ticks"][5]["nodes"][kA]["calls"]["get"], 6);
    EXPECT_EQ(exported["ticks"][5]["nodes"][kB]["moved"], 1);
    // Compare shows the hottest node's share of the calls (never judges it).
    const auto compared = to_json(compare_runs(store, {written.id, written.id}));
    const auto& hottest = compared["figures"]["redis_hottest_node_pct"];
    EXPECT_NEAR(hottest["values"][0].get<double>(), 100.0 * 27 / 39, 1e-9) << hottest.dump();
    EXPECT_NEAR(hottest["values"][1].get<double>(), 100.0 * 27 / 39, 1e-9) << hottest.dump();
}

TEST(StoredClusterNodes, ARunWithoutNodesTellsNone) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto plain = test::write_run(db, 4);
    RunStore store(db, Access::read);
    const RunReport report = load_report(store, plain.id);
    EXPECT_TRUE(store.summary(plain.id).overall.totals.nodes.empty());
    EXPECT_FALSE(summary_json(report.summary).contains("nodes"));
    EXPECT_EQ(report_markdown(report).find("Cluster nodes"), std::string::npos);
    EXPECT_EQ(report_text(report).find("nodes ("), std::string::npos);
    EXPECT_FALSE(export_json(store, plain.id)["ticks"][0].contains("nodes"));
    EXPECT_FALSE(to_json(compare_runs(store, {plain.id, plain.id}))["figures"].contains(
        "redis_hottest_node_pct"));
}

// A tick whose stored nodes are not the object they are written as is named, not skipped.
TEST(StoredClusterNodes, DamagedNodesAreNamed) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto written = write_cluster_run(db, 3);
    {
        Connection raw(db, Connection::Mode::read_write);
        raw.exec("UPDATE samples SET nodes_json = '{\"x\": 3}' WHERE seq = 1");
    }
    RunStore store(db, Access::read);
    try {
        store.samples(written.id);
        ADD_FAILURE() << "read a damaged tick";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("damaged cluster nodes' figures"), std::string::npos)
            << e.what();
    }
}

// Schema 18's samples are today's without nodes_json: a database made so is migrated as it is
// opened, its runs kept without nodes, and stores them afterwards.
TEST(StoredClusterNodes, ASchemaEighteenDatabaseMigrates) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto old = test::write_run(db, 4);
    {
        Connection raw(db, Connection::Mode::read_write);
        raw.exec("ALTER TABLE samples DROP COLUMN nodes_json");
        raw.exec("PRAGMA user_version = 18");
    }
    const auto added = write_cluster_run(db, 2);
    RunStore store(db, Access::read);
    Connection& raw = store.connection();
    EXPECT_EQ(pragma_int(raw, "user_version"), kSchemaVersion);
    const auto columns = test::sample_columns(raw);
    EXPECT_EQ(std::count(columns.begin(), columns.end(), "nodes_json"), 1);
    const RunSummary before = store.summary(old.id);
    EXPECT_EQ(before.overall.totals.total_ops(), old.summary.overall.totals.total_ops());
    EXPECT_TRUE(before.overall.totals.nodes.empty());
    EXPECT_EQ(store.summary(added.id).overall.totals.nodes.at(kA).calls.at("get"), 3u);
}

}  // namespace
}  // namespace perflab
