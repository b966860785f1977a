// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "database.h"
#include "memcached_server.h"
#include "process.h"
#include "reading_log.h"
#include "run_store.h"
#include "schema.h"

namespace perflab {
namespace {

using test::Output;

Output perflab(std::vector<std::string> args) {
    args.insert(args.begin(), PERFLAB_BINARY);
    return test::run(args, 120);
}

std::string spec_text(const test::MemcachedServer& server, double seconds,
                      const std::string& name) {
    const nlohmann::json j = {{"name", name},
                              {"kind", "cache"},
                              {"tick_ms", 200},
                              {"tags", {"it"}},
                              {"phases", {{{"duration_s", seconds}, {"concurrency", 2}}}},
                              {"cache",
                               {{"servers", {server.endpoint()}},
                                {"keys", {{"count", 2000}}},
                                {"value_size", {{"min", 64}, {"max", 512}}}}}};
    return j.dump();
}

// The printed tick lines: "00:00:01 hit:..% get/s:..".
int tick_lines(const std::string& out) {
    std::istringstream in(out);
    int n = 0;
    for (std::string line; std::getline(in, line);)
        if (line.find(" hit:") != std::string::npos && line.find(" get/s:") != std::string::npos)
            ++n;
    return n;
}

// Bytes and modification time: "left untouched" means both.
struct FileState {
    std::string bytes;
    int64_t mtime_ns = 0;
    bool operator==(const FileState&) const = default;
};

FileState state_of(const std::string& path) {
    struct stat st {};
    stat(path.c_str(), &st);
    return {test::read_file(path), int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

class StoreCli : public ::testing::Test {
  protected:
    test::MemcachedServer server;
    test::TempDir dir;
    std::string db = dir.file("runs.db");
};

// started_at_ms is the wall time of the stored ticks' t = 0: after the prefill, which the
// server's own counters date (sets while no get has come), and by the run's first get.
TEST_F(StoreCli, StartedAtIsWhereTheClockStartedAfterThePrefill) {
    constexpr uint64_t kKeys = 150000;
    nlohmann::json spec = nlohmann::json::parse(spec_text(server, 1.0, "prefilled"));
    spec["cache"]["keys"]["count"] = kKeys;
    spec["cache"]["prefill"] = true;
    dir.write("p.json", spec.dump());
    struct Counts {
        uint64_t sets = 0, gets = 0;
    };
    test::ReadingLog<Counts> log([this] {
        const auto s = server.stats();
        return Counts{std::stoull(s.at("cmd_set")), std::stoull(s.at("cmd_get"))};
    });
    const Output run = perflab({"run", dir.file("p.json"), "--db", db, "-q"});
    ASSERT_EQ(run.code, 0) << run.err;
    const Output shown = perflab({"show", "1", "--db", db, "--json"});
    ASSERT_EQ(shown.code, 0) << shown.err;
    const int64_t started = nlohmann::json::parse(shown.out)["run"]["started_at_ms"];
    int64_t last_prefilling = 0, first_getting = 0;
    for (const auto& [wall, c] : log.readings()) {
        if (c.gets == 0 && c.sets > 0 && c.sets < kKeys) last_prefilling = wall;
        if (c.gets > 0 && first_getting == 0) first_getting = wall;
    }
    ASSERT_GT(last_prefilling, 0) << "no reading saw the prefill under way";
    ASSERT_GT(first_getting, 0) << "no reading saw the run's gets";
    EXPECT_GE(started, last_prefilling);
    EXPECT_LE(started, first_getting);
}

TEST_F(StoreCli, RunStoresAndEveryCommandReadsIt) {
    dir.write("a.json", spec_text(server, 1.0, "first"));
    dir.write("b.json", spec_text(server, 1.0, "second"));
    const Output a = perflab({"run", dir.file("a.json"), "--db", db, "--json"});
    ASSERT_EQ(a.code, 0) << a.err;
    EXPECT_NE(a.err.find("run 1 stored in " + db), std::string::npos) << a.err;
    const auto summary = nlohmann::json::parse(a.out);
    ASSERT_EQ(perflab({"run", dir.file("b.json"), "--db", db, "-q"}).code, 0);
    EXPECT_EQ(perflab({"run", dir.file("b.json"), "--no-store", "--db", db, "-q"}).code, 0);

    const Output runs = perflab({"runs", "--db", db, "--json"});
    ASSERT_EQ(runs.code, 0) << runs.err;
    const auto list = nlohmann::json::parse(runs.out);
    ASSERT_EQ(list.size(), 2u);  // --no-store kept nothing
    EXPECT_EQ(list[0]["name"], "second");
    EXPECT_EQ(list[1]["status"], "completed");
    EXPECT_EQ(list[1]["ops"], summary["ops"]["get"]["count"].get<uint64_t>() +
                                  summary["ops"]["set"]["count"].get<uint64_t>());
    EXPECT_NE(perflab({"runs", "--db", db}).out.find("first"), std::string::npos);

    const Output show = perflab({"show", "1", "--db", db, "--json"});
    ASSERT_EQ(show.code, 0) << show.err;
    const auto shown = nlohmann::json::parse(show.out);
    EXPECT_EQ(shown["summary"]["ops"]["get"]["latency_us"], summary["ops"]["get"]["latency_us"]);
    EXPECT_EQ(shown["hosts"][0]["role"], "client");
    // The spec named no seed: the one drawn for the run is reported, and stored with its spec.
    ASSERT_TRUE(summary.contains("seed")) << a.out;
    EXPECT_EQ(shown["spec"]["seed"], summary["seed"]);
    EXPECT_NE(perflab({"show", "1", "--db", db})
                  .out.find("Seed: " + std::to_string(summary["seed"].get<uint64_t>())),
              std::string::npos);
    const Output window = perflab({"show", "1", "--db", db, "--from", "200ms", "--to", "0.6s"});
    ASSERT_EQ(window.code, 0) << window.err;
    EXPECT_NE(window.out.find("Window: 0.2 s to 0.6 s"), std::string::npos) << window.out;
    EXPECT_EQ(perflab({"show", "1", "--db", db, "--from", "soon"}).code, 2);
    // A window outside the 1-s run holds no tick: bad input naming the run's span, not zeros.
    for (const auto& [option, value] : {std::pair{"--from", "5s"}, {"--to", "1h"}}) {
        const Output outside = perflab({"show", "1", "--db", db, option, value});
        EXPECT_EQ(outside.code, 2) << outside.out;
        EXPECT_NE(outside.err.find(std::string(option) + ": "), std::string::npos) << outside.err;
        EXPECT_NE(outside.err.find(" s is outside run 1, which spans 0.0-"), std::string::npos)
            << outside.err;
    }

    const Output compare = perflab({"compare", "1", "2", "--db", db});
    ASSERT_EQ(compare.code, 0) << compare.err;
    EXPECT_NE(compare.out.find("throughput"), std::string::npos);
    EXPECT_EQ(compare.out.find("different machines"), std::string::npos);

    for (const char* format : {"md", "html", "csv", "json", "hlog"}) {
        const std::string file = dir.file(std::string("export.") + format);
        const Output e = perflab({"export", "1", "--db", db, "--format", format, "-o", file});
        ASSERT_EQ(e.code, 0) << format << ": " << e.err;
        EXPECT_FALSE(test::read_file(file).empty()) << format;
    }
    // The CLI's HTML is the desktop's: one file, its charts inline, to a file or to stdout.
    const std::string html = test::read_file(dir.file("export.html"));
    EXPECT_NE(html.find("<img src=\"data:image/png;base64,"), std::string::npos) << html;
    const Output html_out = perflab({"export", "1", "--db", db, "--format", "html"});
    ASSERT_EQ(html_out.code, 0) << html_out.err;
    EXPECT_NE(html_out.out.find("<img src=\"data:image/png;base64,"), std::string::npos);
    const Output hgrm =
        perflab({"export", "1", "--db", db, "--format", "hgrm", "-o", dir.file("export.hgrm")});
    ASSERT_EQ(hgrm.code, 0) << hgrm.err;
    EXPECT_NE(test::read_file(dir.file("export.get.hgrm")).find("#[Mean"), std::string::npos);
    // PDF: only to a file, ".pdf" added to a bare name; read back with poppler's tools.
    EXPECT_EQ(perflab({"export", "1", "--db", db, "--format", "pdf"}).code, 2);
    const Output pdf =
        perflab({"export", "1", "--db", db, "--format", "pdf", "-o", dir.file("report")});
    ASSERT_EQ(pdf.code, 0) << pdf.err;
    EXPECT_EQ(test::read_file(dir.file("report.pdf")).substr(0, 5), "%PDF-");
    const std::string name = shown["run"]["name"].get<std::string>();
    const Output info = test::run({"pdfinfo", dir.file("report.pdf")});
    EXPECT_NE(info.out.find("PerfLab run 1: " + name), std::string::npos) << info.out;
    const Output text = test::run({"pdftotext", dir.file("report.pdf"), "-"});
    EXPECT_NE(text.out.find("Phase 1"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("\"phases\""), std::string::npos) << "the spec in full:\n" << text.out;

    ASSERT_EQ(perflab({"tag", "1", "baseline", "--db", db}).code, 0);
    ASSERT_EQ(perflab({"note", "1", "memcached -m 64", "--db", db}).code, 0);
    const auto tagged =
        nlohmann::json::parse(perflab({"runs", "--db", db, "--tag", "baseline", "--json"}).out);
    ASSERT_EQ(tagged.size(), 1u);
    EXPECT_EQ(tagged[0]["id"], 1);
    ASSERT_EQ(perflab({"delete", "2", "--db", db}).code, 0);
    EXPECT_EQ(nlohmann::json::parse(perflab({"runs", "--db", db, "--json"}).out).size(), 1u);
}

TEST_F(StoreCli, KilledRunIsInterruptedWithItsTicks) {
    dir.write("long.json", spec_text(server, 60, "killed"));
    const std::string out = dir.file("out.txt");
    test::Process run({PERFLAB_BINARY, "run", dir.file("long.json"), "--db", db}, out,
                      dir.file("err.txt"));
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (tick_lines(test::read_file(out)) < 10 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    run.signal(SIGKILL);
    EXPECT_EQ(run.wait(), 128 + SIGKILL);
    const int printed = tick_lines(test::read_file(out));
    ASSERT_GE(printed, 10) << test::read_file(dir.file("err.txt"));

    // The next start of PerfLab finds the run's writer gone.
    const Output runs = perflab({"runs", "--db", db, "--json"});
    ASSERT_EQ(runs.code, 0) << runs.err;
    const auto list = nlohmann::json::parse(runs.out);
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0]["status"], "interrupted");

    RunStore store(db, Access::read);
    const auto samples = store.samples(1);
    EXPECT_GE(int(samples.size()), printed - 1) << "printed " << printed;
    EXPECT_LE(int(samples.size()), printed + 1);
    for (size_t i = 0; i < samples.size(); ++i) {
        EXPECT_GT(samples[i].total_ops(), 0u) << i;
        if (i > 0) {
            EXPECT_GT(samples[i].t_ms, samples[i - 1].t_ms);
        }
    }
    Statement check(store.connection(), "PRAGMA integrity_check");
    ASSERT_TRUE(check.step());
    EXPECT_EQ(check.text(0), "ok");
}

TEST_F(StoreCli, NotADatabaseIsRefusedUntouched) {
    dir.write("notes.db", "my notes\n");
    dir.write("a.json", spec_text(server, 0.4, "x"));
    const auto before = state_of(dir.file("notes.db"));
    for (auto args : std::vector<std::vector<std::string>>{
             {"runs"}, {"show", "1"}, {"run", dir.file("a.json")}, {"tag", "1", "x"}}) {
        args.insert(args.end(), {"--db", dir.file("notes.db")});
        const Output o = perflab(args);
        EXPECT_EQ(o.code, 2) << args[0];
        EXPECT_NE(o.err.find("is not a PerfLab database"), std::string::npos) << o.err;
    }
    EXPECT_TRUE(state_of(dir.file("notes.db")) == before);
}

// note --at: a note on the run's time axis, an event `show` lists; a bad time is bad input.
TEST_F(StoreCli, NoteAtATimeIsAnEventOfTheRun) {
    dir.write("a.json", spec_text(server, 0.4, "x"));
    ASSERT_EQ(perflab({"run", dir.file("a.json"), "--db", db, "-q"}).code, 0);
    const auto noted = perflab({"note", "1", "heap dump here", "--at", "300ms", "--db", db});
    ASSERT_EQ(noted.code, 0) << noted.err;
    const nlohmann::json shown =
        nlohmann::json::parse(perflab({"show", "1", "--db", db, "--json"}).out);
    bool found = false;
    for (const auto& e : shown["events"])
        found = found || (e["kind"] == "note" && e["t_ms"] == 300 && e["text"] == "heap dump here");
    EXPECT_TRUE(found) << shown["events"].dump();
    const auto bad = perflab({"note", "1", "x", "--at", "soon", "--db", db});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("\"soon\""), std::string::npos) << bad.err;
    const auto late = perflab({"note", "1", "x", "--at", "99s", "--db", db});
    EXPECT_EQ(late.code, 2);
    EXPECT_NE(late.err.find("note --at: 99.0 s is outside run 1, which spans 0.0-"),
              std::string::npos)
        << late.err;
}

TEST_F(StoreCli, NewerSchemaIsRefusedUntouched) {
    dir.write("a.json", spec_text(server, 0.4, "x"));
    ASSERT_EQ(perflab({"run", dir.file("a.json"), "--db", db, "-q"}).code, 0);
    {
        Connection raw(db, Connection::Mode::read_write);
        raw.exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion + 1)).c_str());
        raw.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    }
    const auto before = state_of(db);
    for (auto args : std::vector<std::vector<std::string>>{
             {"runs"}, {"show", "1"}, {"run", dir.file("a.json")}, {"delete", "1"}}) {
        args.insert(args.end(), {"--db", db});
        const Output o = perflab(args);
        EXPECT_EQ(o.code, 2) << args[0];
        EXPECT_NE(o.err.find("newer PerfLab"), std::string::npos) << o.err;
    }
    EXPECT_TRUE(state_of(db) == before);
}

TEST_F(StoreCli, MissingRunIdIsNamed) {
    dir.write("a.json", spec_text(server, 0.4, "x"));
    ASSERT_EQ(perflab({"run", dir.file("a.json"), "--db", db, "-q"}).code, 0);
    const auto before = state_of(db);
    for (auto args : std::vector<std::vector<std::string>>{{"show", "42"},
                                                           {"export", "42", "--format", "csv"},
                                                           {"compare", "1", "42"},
                                                           {"delete", "42"},
                                                           {"note", "42", "text"},
                                                           {"tag", "42", "t"}}) {
        args.insert(args.end(), {"--db", db});
        const Output o = perflab(args);
        EXPECT_EQ(o.code, 2) << args[0];
        EXPECT_NE(o.err.find("no run 42 in " + db), std::string::npos) << o.err;
    }
    EXPECT_EQ(state_of(db).bytes, before.bytes);
    EXPECT_EQ(perflab({"show", "abc", "--db", db}).code, 2);
    EXPECT_EQ(perflab({"show", "1", "--db", dir.file("absent.db")}).code, 2);
}

TEST_F(StoreCli, ReadOnlyLocationIsRefused) {
    dir.write("a.json", spec_text(server, 0.4, "x"));
    const Output o = perflab({"run", dir.file("a.json"), "--db", "/sys/perflab/runs.db"});
    EXPECT_EQ(o.code, 2);
    EXPECT_NE(o.err.find("/sys/perflab"), std::string::npos) << o.err;
    EXPECT_EQ(tick_lines(o.out), 0);  // nothing was run

    // An existing database on a read-only mount (needs the right to mount).
    ASSERT_EQ(perflab({"run", dir.file("a.json"), "--db", db, "-q"}).code, 0);
    const std::string ro = dir.file("ro");
    mkdir(ro.c_str(), 0755);
    if (mount(dir.path().c_str(), ro.c_str(), nullptr, MS_BIND, nullptr) != 0)
        GTEST_SKIP() << "cannot bind-mount here";
    struct Unmount {
        std::string path;
        ~Unmount() { umount2(path.c_str(), MNT_DETACH); }
    } unmount{ro};
    ASSERT_EQ(mount(nullptr, ro.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr), 0);
    const auto before = state_of(db);
    for (auto args : std::vector<std::vector<std::string>>{{"runs"}, {"run", dir.file("a.json")}}) {
        args.insert(args.end(), {"--db", ro + "/runs.db"});
        const Output r = perflab(args);
        EXPECT_EQ(r.code, 2) << args[0];
        EXPECT_NE(r.err.find(ro + "/runs.db"), std::string::npos) << r.err;
    }
    EXPECT_TRUE(state_of(db) == before);
}

// Stores a run of one vegeta request sent at `second` past 2026-03-01 12:00:00 UTC (a file of
// its own: the same file is imported once) and returns the id `import` prints.
int64_t import_one(const test::TempDir& dir, const std::string& db, int second) {
    const std::string file = "r" + std::to_string(second) + ".json";
    dir.write(file, R"({"timestamp":"2026-03-01T12:00:)" + std::string(second < 10 ? "0" : "") +
                        std::to_string(second) + R"(Z","latency":5000000,"code":200})" + "\n");
    const Output out = perflab({"import", dir.file(file), "--db", db});
    EXPECT_EQ(out.code, 0) << out.err;
    return std::stoll(out.out);
}

std::vector<int64_t> run_ids(const std::string& db) {
    std::vector<int64_t> ids;
    for (const auto& run : nlohmann::json::parse(perflab({"runs", "--db", db, "--json"}).out))
        ids.push_back(run["id"].get<int64_t>());
    std::sort(ids.begin(), ids.end());
    return ids;
}

// A bookmarked or scripted run id keeps naming its run, or none: ids of deleted runs, the
// newest one too, are never given again.
TEST(StoreIds, DeletedRunsIdsAreNeverReused) {
    test::TempDir dir;
    const std::string db = dir.file("runs.db");
    EXPECT_EQ(import_one(dir, db, 1), 1);
    EXPECT_EQ(import_one(dir, db, 2), 2);
    ASSERT_EQ(perflab({"delete", "2", "--db", db}).code, 0);
    EXPECT_EQ(import_one(dir, db, 3), 3);
    ASSERT_EQ(perflab({"delete", "3", "--db", db}).code, 0);
    ASSERT_EQ(perflab({"delete", "1", "--db", db}).code, 0);
    EXPECT_EQ(import_one(dir, db, 4), 4);
    EXPECT_EQ(run_ids(db), std::vector<int64_t>{4});
}

// tests/fixtures/store/schema-13.db was written by PerfLab at schema version 13 (before ids
// were AUTOINCREMENT): three vegeta files imported as runs 1-3 ("before the upgrade N"), run 2
// deleted. Opened by this PerfLab it keeps both runs and their figures, and gives ids past the
// highest one it holds, never a deleted one again.
TEST(StoreIds, SchemaThirteenDatabaseMigratesKeepingRunsAndNeverReusesIds) {
    test::TempDir dir;
    const std::string db = dir.file("runs.db");
    dir.write("runs.db", test::read_file(std::string(PERFLAB_SOURCE_DIR) +
                                         "/tests/fixtures/store/schema-13.db"));
    {
        Connection raw(db, Connection::Mode::read_only);
        ASSERT_EQ(pragma_int(raw, "user_version"), 13);
    }
    EXPECT_EQ(run_ids(db), (std::vector<int64_t>{1, 3}));
    for (const int id : {1, 3}) {
        const Output shown = perflab({"show", std::to_string(id), "--db", db, "--json"});
        ASSERT_EQ(shown.code, 0) << shown.err;
        const auto j = nlohmann::json::parse(shown.out);
        EXPECT_EQ(j["run"]["name"], "before the upgrade " + std::to_string(id));
        EXPECT_EQ(j["summary"]["requests"], 5);
    }
    EXPECT_EQ(import_one(dir, db, 1), 4);
    ASSERT_EQ(perflab({"delete", "4", "--db", db}).code, 0);
    EXPECT_EQ(import_one(dir, db, 2), 5);
    EXPECT_EQ(run_ids(db), (std::vector<int64_t>{1, 3, 5}));
    Connection raw(db, Connection::Mode::read_only);
    EXPECT_EQ(pragma_int(raw, "user_version"), kSchemaVersion);
    Statement q(raw, "SELECT sql FROM sqlite_schema WHERE name = 'runs'");
    ASSERT_TRUE(q.step());
    EXPECT_NE(q.text(0).find("id INTEGER PRIMARY KEY AUTOINCREMENT,"), std::string::npos)
        << q.text(0);
    q.run();
    Statement check(raw, "PRAGMA integrity_check");
    ASSERT_TRUE(check.step());
    EXPECT_EQ(check.text(0), "ok");
    check.run();
}

TEST(HostsCli, SavedHostsAreAddedListedAndRemoved) {
    test::TempDir dir;
    const std::string db = dir.file("runs.db");
    ASSERT_EQ(perflab({"hosts", "add", "cache-1", "probe@127.0.0.1:2222", "--key", "/k/id_ed25519",
                       "--per-core", "--db", db})
                  .code,
              0);
    ASSERT_EQ(perflab({"hosts", "add", "web", "probe@127.0.0.1", "--db", db}).code, 0);
    const Output list = perflab({"hosts", "list", "--json", "--db", db});
    ASSERT_EQ(list.code, 0) << list.err;
    const auto hosts = nlohmann::json::parse(list.out);
    ASSERT_EQ(hosts.size(), 2u);
    EXPECT_EQ(hosts[0]["name"], "cache-1");
    EXPECT_EQ(hosts[0]["target"], "probe@127.0.0.1:2222");
    EXPECT_EQ(hosts[0]["key"], "/k/id_ed25519");
    EXPECT_EQ(hosts[0]["per_core"], true);
    EXPECT_EQ(hosts[1]["name"], "web");

    ASSERT_EQ(perflab({"hosts", "remove", "cache-1", "--db", db}).code, 0);
    const auto left = nlohmann::json::parse(perflab({"hosts", "list", "--json", "--db", db}).out);
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0]["name"], "web");
}

TEST(HostsCli, BadInputNamesWhatIsWrong) {
    test::TempDir dir;
    const std::string db = dir.file("runs.db");
    const Output target = perflab({"hosts", "add", "x", "no-user-here:22", "--db", db});
    EXPECT_EQ(target.code, 2);
    EXPECT_NE(target.err.find("target"), std::string::npos) << target.err;
    ASSERT_EQ(perflab({"hosts", "add", "x", "u@127.0.0.1", "--db", db}).code, 0);
    const Output twice = perflab({"hosts", "add", "x", "u@127.0.0.1:23", "--db", db});
    EXPECT_EQ(twice.code, 2);
    EXPECT_NE(twice.err.find("name"), std::string::npos) << twice.err;
    const Output missing = perflab({"hosts", "remove", "nobody", "--db", db});
    EXPECT_EQ(missing.code, 2);
    EXPECT_NE(missing.err.find("nobody"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace perflab
