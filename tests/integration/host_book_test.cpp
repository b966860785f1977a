// SPDX-License-Identifier: MIT
// Saved SSH hosts in the PerfLab database: the API, its refusals, and the schema migration
// from version 1 that brings the table in without touching the runs.
#include "host_book.h"

#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "process.h"
#include "run_store.h"
#include "schema.h"
#include "store_writer.h"

namespace perflab {
namespace {

SavedHost host(const std::string& name, const std::string& target) {
    SavedHost h;
    h.name = name;
    h.target = target;
    h.key_file = "/home/me/.ssh/id_ed25519";
    h.per_core = true;
    h.notes = "rack 4";
    return h;
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const StoreError& e) {
        return e.what();
    }
    return "no error";
}

// A database holding one stored run, as PerfLab wrote it.
int64_t store_a_run(const std::string& db) {
    auto spec = parse_spec(nlohmann::json{{"name", "before the upgrade"},
                                          {"kind", "cache"},
                                          {"phases", {{{"duration_s", 1}, {"concurrency", 1}}}},
                                          {"cache", {{"servers", {"127.0.0.1:11211"}}}}});
    EXPECT_TRUE(spec) << spec.error_text();
    HardwareProfile client;
    client.hostname = "loadgen";
    StoreWriter writer(db, *spec.spec, client);
    return writer.run_id();
}

TEST(HostBook, AddsListsUpdatesAndRemoves) {
    test::TempDir dir;
    HostBook book(dir.file("perflab.db"), Access::write);
    EXPECT_TRUE(book.list().empty());
    const int64_t db1 = book.add(host("db1", "root@10.0.0.5:2222"));
    const int64_t app = book.add(host("App server", "deploy@[::1]:22"));
    ASSERT_NE(db1, app);

    const auto all = book.list();
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].name, "App server");  // by name, case-insensitive
    EXPECT_EQ(all[1].id, db1);
    EXPECT_EQ(all[1].target, "root@10.0.0.5:2222");
    EXPECT_EQ(all[1].key_file, "/home/me/.ssh/id_ed25519");
    EXPECT_TRUE(all[1].per_core);
    EXPECT_EQ(all[1].notes, "rack 4");

    SavedHost changed = book.get(db1);
    changed.target = "admin@db1.example:22";
    changed.key_file.clear();
    changed.per_core = false;
    changed.notes = "it's \"quoted\"; DROP TABLE saved_hosts; --";
    book.update(changed);
    const SavedHost read = book.get(db1);
    EXPECT_EQ(read.target, "admin@db1.example:22");
    EXPECT_EQ(read.key_file, "");
    EXPECT_FALSE(read.per_core);
    EXPECT_EQ(read.notes, changed.notes);

    book.remove(app);
    ASSERT_EQ(book.list().size(), 1u);
    EXPECT_NE(error_of([&] { book.get(app); }).find("no saved host"), std::string::npos);
    EXPECT_THROW(book.remove(app), StoreError);
}

TEST(HostBook, SurvivesReopeningByAnotherConnection) {
    test::TempDir dir;
    HostBook(dir.file("perflab.db"), Access::write).add(host("db1", "root@127.0.0.1:22"));
    HostBook reader(dir.file("perflab.db"), Access::read);
    ASSERT_EQ(reader.list().size(), 1u);
    EXPECT_EQ(reader.list()[0].name, "db1");
}

TEST(HostBook, BadInputNamesTheFieldAndSavesNothing) {
    test::TempDir dir;
    HostBook book(dir.file("perflab.db"), Access::write);
    const int64_t id = book.add(host("db1", "root@127.0.0.1:22"));

    const std::string bad_target = error_of([&] { book.add(host("db2", "no-user-here")); });
    EXPECT_EQ(bad_target.rfind("target:", 0), 0u) << bad_target;
    EXPECT_NE(bad_target.find("no-user-here"), std::string::npos) << bad_target;
    EXPECT_EQ(error_of([&] { book.add(host("db2", "root@host:99999")); }).rfind("target:", 0), 0u);
    EXPECT_EQ(error_of([&] { book.add(host("  ", "root@host")); }).rfind("name:", 0), 0u);
    const std::string taken = error_of([&] { book.add(host("db1", "root@other")); });
    EXPECT_EQ(taken.rfind("name:", 0), 0u) << taken;
    EXPECT_NE(taken.find("already saved"), std::string::npos) << taken;
    EXPECT_EQ(book.list().size(), 1u);

    const int64_t other = book.add(host("db2", "root@other"));
    SavedHost renamed = book.get(other);
    renamed.name = "db1";
    EXPECT_EQ(error_of([&] { book.update(renamed); }).rfind("name:", 0), 0u);
    EXPECT_EQ(book.get(other).name, "db2");
    SavedHost same = book.get(id);  // keeping its own name is no clash
    same.notes = "unchanged name";
    book.update(same);
    EXPECT_EQ(book.get(id).notes, "unchanged name");
    SavedHost ghost = host("ghost", "root@host");
    ghost.id = 4242;
    EXPECT_NE(error_of([&] { book.update(ghost); }).find("no saved host 4242"), std::string::npos);
}

TEST(HostBook, TurnsIntoSshProbes) {
    const ProbeSpec p = probe_spec(host("db1", "root@10.0.0.5:2222"));
    EXPECT_EQ(p.type, ProbeSpec::Type::ssh);
    EXPECT_EQ(p.target, "root@10.0.0.5:2222");
    EXPECT_EQ(p.key, "/home/me/.ssh/id_ed25519");
    EXPECT_TRUE(p.per_core);
}

TEST(HostBook, VersionOneDatabaseMigratesAndKeepsItsRuns) {
    test::TempDir dir;
    const auto db = dir.file("perflab.db");
    const int64_t run = store_a_run(db);
    {  // back to what a version 1 PerfLab left behind
        Connection raw(db, Connection::Mode::read_write);
        raw.exec(
            "DROP TABLE saved_hosts; DROP INDEX runs_source; ALTER TABLE samples DROP COLUMN "
            "drain; ALTER TABLE samples DROP COLUMN dropped; "
            "ALTER TABLE samples DROP COLUMN first_send_us; "
            "ALTER TABLE samples DROP COLUMN last_send_us; "
            "ALTER TABLE samples DROP COLUMN last_reply_us; ALTER TABLE runs DROP COLUMN rate; "
            "ALTER TABLE runs DROP COLUMN error_rate; ALTER TABLE runs DROP COLUMN "
            "figures_version; ALTER TABLE runs DROP COLUMN slo_json; "
            "ALTER TABLE runs DROP COLUMN search_json; "
            "ALTER TABLE runs DROP COLUMN source_sha256; ALTER TABLE runs DROP COLUMN "
            "summary_only; ALTER TABLE sample_ops DROP COLUMN service; "
            "ALTER TABLE final_histograms DROP COLUMN service; DROP TABLE run_agents; "
            "ALTER TABLE sample_ops DROP COLUMN check_failures; "
            "ALTER TABLE sample_ops DROP COLUMN checks_json; "
            "ALTER TABLE samples DROP COLUMN agents_json; DROP TABLE sample_transactions; "
            "ALTER TABLE samples DROP COLUMN moved; ALTER TABLE samples DROP COLUMN asked; "
            "ALTER TABLE samples DROP COLUMN bytes_in_known; "
            "ALTER TABLE samples DROP COLUMN bytes_out_known; "
            "ALTER TABLE samples DROP COLUMN nodes_json; PRAGMA user_version = 1");
    }
    HostBook book(db, Access::write);
    book.add(host("db1", "root@127.0.0.1:22"));
    EXPECT_EQ(book.list().size(), 1u);
    Connection raw(db, Connection::Mode::read_only);
    EXPECT_EQ(pragma_int(raw, "user_version"), kSchemaVersion);
    RunStore store(db, Access::read);
    EXPECT_EQ(store.info(run).name, "before the upgrade");
}

TEST(HostBook, NewerDatabaseIsRefusedUntouched) {
    test::TempDir dir;
    const auto db = dir.file("perflab.db");
    HostBook(db, Access::write).add(host("db1", "root@127.0.0.1:22"));
    {
        Connection raw(db, Connection::Mode::read_write);
        raw.exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion + 1)).c_str());
        raw.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    }
    const std::string before = test::read_file(db);
    const std::string error = error_of([&] { HostBook book(db, Access::write); });
    EXPECT_NE(error.find("newer PerfLab"), std::string::npos) << error;
    EXPECT_EQ(test::read_file(db), before);
}

TEST(HostBook, SecretsHaveNoColumn) {
    test::TempDir dir;
    HostBook(dir.file("perflab.db"), Access::write);
    Connection raw(dir.file("perflab.db"), Connection::Mode::read_only);
    Statement q(raw, "SELECT name FROM pragma_table_info('saved_hosts')");
    std::vector<std::string> columns;
    while (q.step())
        columns.push_back(q.text(0));
    EXPECT_EQ(columns,
              (std::vector<std::string>{"id", "name", "target", "key_file", "per_core", "notes"}));
}

}  // namespace
}  // namespace perflab
