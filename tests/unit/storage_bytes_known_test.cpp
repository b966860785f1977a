// SPDX-License-Identifier: MIT
// Bytes another tool's file did not record (IntervalSample::bytes_in_known, bytes_out_known) are
// stored as unknown and shown as unknown in every output, never as 0; a database of schema 17,
// whose imports stored 0 for them, migrates telling them so.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
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

std::vector<std::string> split(const std::string& text, char sep) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string field; std::getline(in, field, sep);)
        out.push_back(field);
    return out;
}

// A run of four ticks whose bytes in were not counted (and stored as 0, as an import leaves
// them); `ticks_known`: the first that many ticks counted them after all.
test::WrittenRun write_unknown_bytes_in(const std::string& db, int ticks_known = 0) {
    return test::write_changed_run(db, test::cache_spec(), 4, [&](IntervalSample& s, int i) {
        if (i < ticks_known) return;
        s.bytes_in = 0;
        s.bytes_in_known = false;
    });
}

TEST(StoredBytes, UnknownBytesAreUnknownInEveryOutput) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto known = test::write_run(db, 4);
    const auto unknown = write_unknown_bytes_in(db);
    RunStore store(db, Access::read);
    const auto samples = store.samples(unknown.id);
    ASSERT_EQ(samples.size(), 4u);
    for (const auto& s : samples) {
        EXPECT_FALSE(s.bytes_in_known);
        EXPECT_TRUE(s.bytes_out_known);
        EXPECT_GT(s.bytes_out, 0u);
    }
    const RunSummary summary = store.summary(unknown.id);
    EXPECT_FALSE(summary.overall.totals.bytes_in_known);
    EXPECT_TRUE(summary_json(summary)["bytes_in"].is_null()) << summary_json(summary).dump();
    EXPECT_EQ(summary_json(summary)["bytes_out"], summary.overall.totals.bytes_out);
    EXPECT_FALSE(store.summary(unknown.id, Window{2000, 4000}).overall.totals.bytes_in_known);

    const RunReport report = load_report(store, unknown.id);
    for (const std::string& text : {report_text(report), report_markdown(report)})
        EXPECT_NE(text.find("bytes in -, out "), std::string::npos) << text;
    const std::string csv = ticks_csv(samples, RunKind::cache);
    const auto lines = split(csv, '\n');
    const auto header = split(lines[0], ',');
    const auto at = size_t(std::find(header.begin(), header.end(), "bytes_in") - header.begin());
    ASSERT_LT(at, header.size()) << lines[0];
    for (size_t i = 1; i < lines.size(); ++i)
        if (!lines[i].empty()) {
            EXPECT_EQ(split(lines[i], ',')[at], "") << lines[i];
            EXPECT_NE(split(lines[i], ',')[at + 1], "") << lines[i];
        }
    // Held in a variable: a range-for over a member of a temporary reads it after it died
    // (AddressSanitizer saw it).
    const auto exported = export_json(store, unknown.id);
    for (const auto& tick : exported["ticks"]) {
        EXPECT_TRUE(tick["bytes_in"].is_null()) << tick.dump();
        EXPECT_TRUE(tick["bytes_out"].is_number()) << tick.dump();
    }
    const auto compared = to_json(compare_runs(store, {known.id, unknown.id}));
    const auto& values = compared["figures"]["bytes_in"]["values"];
    EXPECT_EQ(values[0], double(store.summary(known.id).overall.totals.bytes_in));
    EXPECT_TRUE(values[1].is_null()) << values.dump();
}

// A sum over ticks some of which did not count their bytes is no count of them.
TEST(StoredBytes, ASumWithAnUnknownTickIsUnknown) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto mixed = write_unknown_bytes_in(db, 2);
    RunStore store(db, Access::read);
    EXPECT_FALSE(store.summary(mixed.id).overall.totals.bytes_in_known);
    const RunSummary first_two = store.summary(mixed.id, Window{0, 2000});
    EXPECT_TRUE(first_two.overall.totals.bytes_in_known);
    EXPECT_EQ(first_two.overall.totals.bytes_in,
              mixed.samples[0].bytes_in + mixed.samples[1].bytes_in);
}

// Schema 17 stored an import's unknown bytes as 0: an imported run with no byte in a direction
// over all its ticks migrates as one that did not count them; a run of PerfLab's own, and an
// imported one's other direction, keep their counts.
TEST(StoredBytes, ASchemaSeventeenDatabaseMigrates) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto own = test::write_run(db, 4);
    const auto imported = test::write_run(db, 4);
    {
        Connection raw(db, Connection::Mode::read_write);
        raw.exec("ALTER TABLE samples DROP COLUMN nodes_json");
        raw.exec("ALTER TABLE samples DROP COLUMN bytes_out_known");
        raw.exec("ALTER TABLE samples DROP COLUMN bytes_in_known");
        raw.exec("PRAGMA user_version = 17");
        Statement mark(raw, "UPDATE runs SET status = 'imported' WHERE id = ?1");
        mark.bind(1, imported.id);
        mark.run();
        Statement zero(raw, "UPDATE samples SET bytes_in = 0 WHERE run_id = ?1");
        zero.bind(1, imported.id);
        zero.run();
        const auto columns = test::sample_columns(raw);
        ASSERT_EQ(std::count(columns.begin(), columns.end(), "bytes_in_known"), 0);
    }
    const auto added = write_unknown_bytes_in(db);
    RunStore store(db, Access::read);
    EXPECT_EQ(pragma_int(store.connection(), "user_version"), kSchemaVersion);
    const auto& was_imported = store.summary(imported.id).overall.totals;
    EXPECT_FALSE(was_imported.bytes_in_known);
    EXPECT_TRUE(was_imported.bytes_out_known);
    EXPECT_EQ(was_imported.bytes_out, imported.summary.overall.totals.bytes_out);
    const auto& was_own = store.summary(own.id).overall.totals;
    EXPECT_TRUE(was_own.bytes_in_known && was_own.bytes_out_known);
    EXPECT_EQ(was_own.bytes_in, own.summary.overall.totals.bytes_in);
    EXPECT_FALSE(store.summary(added.id).overall.totals.bytes_in_known);
}

}  // namespace
}  // namespace perflab
