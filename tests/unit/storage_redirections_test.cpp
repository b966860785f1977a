// SPDX-License-Identifier: MIT
// A Redis Cluster run's redirections (IntervalSample::moved, asked) are stored per tick and read
// back into every output; a database of schema 16, whose samples had no such columns, migrates
// keeping its runs, which then tell none.
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

RunSpec redis_spec(bool cluster) {
    const nlohmann::json j = {{"name", "redis run"},
                              {"kind", "cache"},
                              {"tick_ms", 1000},
                              {"phases", {{{"duration_s", 60}, {"concurrency", 4}}}},
                              {"cache",
                               {{"servers", {"127.0.0.1:7000"}},
                                {"protocol", "redis"},
                                {"keys", {{"count", 1000}}},
                                {"redis", {{"cluster", cluster}}}}}};
    auto parsed = parse_spec(j);
    EXPECT_TRUE(parsed) << parsed.error_text();
    return *parsed.spec;
}

// A run of `ticks` ticks whose tick i had i MOVED and i % 2 ASK replies, or none.
test::WrittenRun write_redis_run(const std::string& db, bool cluster, int ticks, bool redirected) {
    return test::write_changed_run(
        db, redis_spec(cluster), ticks,
        [&](IntervalSample& s, int i) {
            s.moved = redirected ? uint64_t(i) : 0;
            s.asked = redirected ? uint64_t(i % 2) : 0;
        },
        [&](RunSummary& summary) { summary.redis_cluster = cluster; });
}

TEST(StoredRedirections, EveryTickAndEveryOutputKeepsThem) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto written = write_redis_run(db, true, 6, true);
    RunStore store(db, Access::read);
    const auto samples = store.samples(written.id);
    ASSERT_EQ(samples.size(), written.samples.size());
    for (size_t i = 0; i < samples.size(); ++i) {
        EXPECT_EQ(samples[i].moved, written.samples[i].moved) << i;
        EXPECT_EQ(samples[i].asked, written.samples[i].asked) << i;
    }
    // 0 + 1 + ... + 5 MOVED, three ticks with an ASK.
    const RunSummary summary = store.summary(written.id);
    EXPECT_TRUE(summary.redis_cluster);
    EXPECT_EQ(summary.overall.totals.moved, 15u);
    EXPECT_EQ(summary.overall.totals.asked, 3u);
    EXPECT_EQ(summary_json(summary).dump(), summary_json(written.summary).dump());
    EXPECT_EQ(summary_json(summary)["redirections"], nlohmann::json({{"moved", 15}, {"ask", 3}}));
    // A window re-sums the ticks: the last two.
    const RunSummary window = store.summary(written.id, Window{4000, 6000});
    EXPECT_EQ(window.overall.totals.moved, 9u);
    EXPECT_EQ(window.overall.totals.asked, 1u);

    const RunReport report = load_report(store, written.id);
    EXPECT_NE(report_text(report).find("redirections: MOVED 15, ASK 3"), std::string::npos)
        << report_text(report);
    EXPECT_NE(report_markdown(report).find("redirections MOVED 15, ASK 3"), std::string::npos);
    EXPECT_NE(report_html(report).find("redirections MOVED 15, ASK 3"), std::string::npos);
    const std::string csv = ticks_csv(samples, RunKind::cache);
    EXPECT_NE(csv.find(",sent,late,moved,ask,"), std::string::npos) << csv;
    const auto exported = export_json(store, written.id);
    EXPECT_EQ(exported["ticks"][5]["redirections"], nlohmann::json({{"moved", 5}, {"ask", 1}}));
    const auto compared = to_json(compare_runs(store, {written.id, written.id}));
    EXPECT_EQ(compared["figures"]["redis_moved"]["values"], nlohmann::json({15.0, 15.0}));
    EXPECT_EQ(compared["figures"]["redis_ask"]["values"], nlohmann::json({3.0, 3.0}));
}

// A stable cluster's run tells its redirections, none; a run of one Redis tells them not.
TEST(StoredRedirections, ToldForClusterRunsAndRunsThatHadAny) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto stable = write_redis_run(db, true, 3, false);
    const auto single = write_redis_run(db, false, 3, false);
    RunStore store(db, Access::read);
    const RunReport cluster = load_report(store, stable.id), plain = load_report(store, single.id);
    EXPECT_NE(report_text(cluster).find("redirections: MOVED 0, ASK 0"), std::string::npos);
    EXPECT_EQ(report_text(plain).find("redirections"), std::string::npos) << report_text(plain);
    EXPECT_NE(ticks_csv(store.samples(stable.id), RunKind::cache, true).find(",moved,ask,"),
              std::string::npos);
    EXPECT_EQ(ticks_csv(store.samples(single.id), RunKind::cache).find("moved"), std::string::npos);
    EXPECT_FALSE(export_json(store, single.id)["ticks"][0].contains("redirections"));
    const auto compared = to_json(compare_runs(store, {stable.id, single.id}));
    EXPECT_EQ(compared["figures"]["redis_moved"]["values"], nlohmann::json({0.0, nullptr}));
}

// Schema 16's samples are today's without the two columns version 17 adds: a database made so
// is migrated as it is opened, its runs kept with no redirections, and stores them afterwards.
TEST(StoredRedirections, ASchemaSixteenDatabaseMigrates) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto old = write_redis_run(db, true, 4, false);
    {
        Connection raw(db, Connection::Mode::read_write);
        raw.exec("ALTER TABLE samples DROP COLUMN nodes_json");
        raw.exec("ALTER TABLE samples DROP COLUMN bytes_out_known");
        raw.exec("ALTER TABLE samples DROP COLUMN bytes_in_known");
        raw.exec("ALTER TABLE samples DROP COLUMN asked");
        raw.exec("ALTER TABLE samples DROP COLUMN moved");
        raw.exec("PRAGMA user_version = 16");
        const auto columns = test::sample_columns(raw);
        ASSERT_EQ(std::count(columns.begin(), columns.end(), "moved"), 0);
    }
    const auto added = write_redis_run(db, true, 4, true);
    RunStore store(db, Access::read);
    Connection& raw = store.connection();
    EXPECT_EQ(pragma_int(raw, "user_version"), kSchemaVersion);
    const auto columns = test::sample_columns(raw);
    EXPECT_EQ(std::count(columns.begin(), columns.end(), "moved"), 1);
    EXPECT_EQ(std::count(columns.begin(), columns.end(), "asked"), 1);
    const RunSummary before = store.summary(old.id);
    EXPECT_EQ(before.overall.totals.total_ops(), old.summary.overall.totals.total_ops());
    EXPECT_EQ(before.overall.totals.moved + before.overall.totals.asked, 0u);
    const RunSummary after = store.summary(added.id);
    EXPECT_EQ(after.overall.totals.moved, 6u);
    EXPECT_EQ(after.overall.totals.asked, 2u);
    Statement check(raw, "PRAGMA integrity_check");
    ASSERT_TRUE(check.step());
    EXPECT_EQ(check.text(0), "ok");
    check.run();
}

}  // namespace
}  // namespace perflab
