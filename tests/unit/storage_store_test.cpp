// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "hgrm_export.h"
#include "model/compare_stats.h"
#include "model/format.h"
#include "model/summary_report.h"
#include "process.h"
#include "run_compare.h"
#include "run_report.h"
#include "run_store.h"
#include "stored_runs.h"

namespace perflab {
namespace {

using test::cache_spec;
using test::profile;
using test::write_run;

void expect_same(const IntervalSample& a, const IntervalSample& b) {
    EXPECT_EQ(a.t_ms, b.t_ms);
    EXPECT_EQ(a.interval_ms, b.interval_ms);
    EXPECT_EQ(a.phase, b.phase);
    EXPECT_EQ(a.connections, b.connections);
    EXPECT_EQ(a.hits, b.hits);
    EXPECT_EQ(a.misses, b.misses);
    EXPECT_EQ(a.bytes_in, b.bytes_in);
    EXPECT_EQ(a.bytes_out, b.bytes_out);
    EXPECT_EQ(a.sent, b.sent);
    EXPECT_EQ(a.errors, b.errors);
    EXPECT_EQ(a.status_codes, b.status_codes);
    ASSERT_EQ(a.ops.size(), b.ops.size());
    for (const auto& [name, op] : a.ops) {
        ASSERT_TRUE(b.ops.count(name)) << name;
        EXPECT_EQ(op.count, b.ops.at(name).count);
        EXPECT_EQ(op.errors, b.ops.at(name).errors);
        EXPECT_TRUE(op.latency == b.ops.at(name).latency) << name << " at " << a.t_ms;
    }
}

std::string bytes_of(const std::string& path) {
    return test::read_file(path);
}

TEST(RunStore, SamplesEventsAndProbesRoundTrip) {
    test::TempDir dir;
    const auto written = write_run(dir.file("runs.db"), 20);
    RunStore store(dir.file("runs.db"), Access::read);
    const auto samples = store.samples(written.id);
    ASSERT_EQ(samples.size(), written.samples.size());
    for (size_t i = 0; i < samples.size(); ++i)
        expect_same(samples[i], written.samples[i]);

    const RunInfo info = store.info(written.id);
    EXPECT_EQ(info.status, "completed");
    EXPECT_EQ(info.name, "stored run");
    EXPECT_EQ(info.tags, std::vector<std::string>{"nightly"});
    EXPECT_EQ(info.notes, "from the spec");
    EXPECT_GT(info.ended_at_ms, 0);
    EXPECT_EQ(info.figures.ops, written.summary.overall.totals.total_ops());
    EXPECT_EQ(info.figures.p99_us, written.summary.overall.totals.latency().percentile(99));
    EXPECT_EQ(summary_json(store.summary(written.id)).dump(), summary_json(written.summary).dump());
    EXPECT_EQ(parse_spec(store.spec(written.id)).spec->name, "stored run");

    const auto events = store.events(written.id);
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[1].text, "phase 2: rate 500/s");
    const auto probes = store.probe_samples(written.id);
    ASSERT_EQ(probes.size(), 20u);
    EXPECT_EQ(probes[3].values["cpu_user"], 15.5);
    const auto hosts = store.hosts(written.id);
    ASSERT_EQ(hosts.size(), 1u);
    EXPECT_EQ(hosts[0].role, "client");
    EXPECT_EQ(hosts[0].profile.cpu_model, "Test CPU");
}

TEST(RunStore, FinalHistogramsEqualTheRunsTotals) {
    test::TempDir dir;
    const auto written = write_run(dir.file("runs.db"), 10);
    RunStore store(dir.file("runs.db"), Access::read);
    Statement q(store.connection(),
                "SELECT phase, op, histogram FROM final_histograms WHERE run_id = ?1");
    q.bind(1, written.id);
    int rows = 0;
    while (q.step()) {
        ++rows;
        const auto h = Histogram::decode(q.blob(2));
        ASSERT_TRUE(h);
        const int phase = int(q.integer(0));
        const auto& totals =
            phase < 0 ? written.summary.overall : written.summary.phases[size_t(phase)];
        EXPECT_TRUE(*h == totals.totals.ops.at(q.text(1)).latency);
    }
    EXPECT_EQ(rows, 6);  // get and set, overall and two phases
}

TEST(RunStore, WindowPercentilesEqualAHistogramOfTheSameTicks) {
    test::TempDir dir;
    const auto written = write_run(dir.file("runs.db"), 120);
    RunStore store(dir.file("runs.db"), Access::read);
    const RunSummary window = store.summary(written.id, {10'000, 60'000});
    Histogram get, all;
    uint64_t ops = 0;
    for (const auto& s : written.samples)
        if (s.t_ms > 10'000 && s.t_ms <= 60'000) {
            get.merge(s.ops.at("get").latency);
            all.merge(s.latency());
            ops += s.total_ops();
        }
    const auto& totals = window.overall.totals;
    EXPECT_EQ(totals.total_ops(), ops);
    EXPECT_DOUBLE_EQ(window.overall.duration_s, 50.0);
    for (double p : {50.0, 90.0, 99.0, 99.9, 100.0}) {
        EXPECT_EQ(totals.ops.at("get").latency.percentile(p), get.percentile(p)) << p;
        EXPECT_EQ(totals.latency().percentile(p), all.percentile(p)) << p;
    }
}

// Ticks end a little after each second, as a real run's do: a 10-s window is 10 ticks and
// 10 s, not 11 (the tick ending just after its start is mostly before it).
TEST(RunStore, AWindowOfJitteredTicksSpansItsOwnLength) {
    test::TempDir dir;
    const RunSpec spec = cache_spec();
    StoreWriter writer(dir.file("runs.db"), spec, profile());
    writer.on_start(spec);
    for (int i = 0; i < 30; ++i) {
        auto s = test::synthetic_tick(i, 1000, 0, 100);
        s.t_ms += 20;
        writer.on_sample(s);
    }
    writer.on_end({});
    ASSERT_EQ(writer.finish(), "");
    RunStore store(dir.file("runs.db"), Access::read);
    const auto ticks = store.samples(writer.run_id(), {10'000, 20'000});
    ASSERT_EQ(ticks.size(), 10u);
    EXPECT_EQ(ticks.front().t_ms, 11'020);
    EXPECT_EQ(ticks.back().t_ms, 20'020);
    EXPECT_DOUBLE_EQ(store.summary(writer.run_id(), {10'000, 20'000}).overall.duration_s, 10.0);
}

TEST(RunStore, HostsAreStoredOncePerMachine) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    write_run(db, 2);
    write_run(db, 2);
    write_run(db, 2, profile("other-box"));
    RunStore store(db, Access::read);
    Statement q(store.connection(), "SELECT count(*) FROM hosts");
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.integer(0), 2);
}

TEST(RunStore, ARunWhoseWriterDiedBecomesInterrupted) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto spec = cache_spec();
    StoreWriter writer(db, spec, profile());
    for (int i = 0; i < 5; ++i)
        writer.on_sample(test::synthetic_tick(i, 1000, 0, 500));
    {
        // Our own writer is alive: a reader must leave its run alone.
        RunStore store(db, Access::read);
        EXPECT_EQ(store.info(writer.run_id()).status, "running");
    }
    writer.finish();
    {
        // Now pretend the writer was a process that is gone.
        Connection raw(db, Connection::Mode::read_write);
        Statement q(raw, "UPDATE runs SET writer_pid = 999999999 WHERE id = ?1");
        q.bind(1, writer.run_id());
        q.run();
    }
    RunStore store(db, Access::read);
    const RunInfo info = store.info(writer.run_id());
    EXPECT_EQ(info.status, "interrupted");
    EXPECT_EQ(info.ended_at_ms, info.started_at_ms + 5000);
    EXPECT_EQ(info.figures.ops, 2500u);
    EXPECT_EQ(store.samples(writer.run_id()).size(), 5u);
}

TEST(RunStore, NotesTagsListAndDelete) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto a = write_run(db, 2);
    const auto b = write_run(db, 2, profile(), cache_spec("cold keys", 1'000'000));
    RunStore store(db, Access::write);
    store.add_note(a.id, "server had 2 GB");
    store.add_tag(a.id, "baseline");
    EXPECT_EQ(store.info(a.id).notes, "from the spec\nserver had 2 GB");
    EXPECT_EQ(store.info(a.id).tags, (std::vector<std::string>{"baseline", "nightly"}));
    EXPECT_EQ(store.list().size(), 2u);
    EXPECT_EQ(store.list().front().id, b.id);  // newest first
    EXPECT_EQ(store.list({"", "baseline", ""}).size(), 1u);
    EXPECT_EQ(store.list({"", "", "COLD"}).front().id, b.id);
    EXPECT_EQ(store.list({"http", "", ""}).size(), 0u);
    store.remove(a.id);
    EXPECT_THROW(store.info(a.id), StoreError);
    Statement q(store.connection(), "SELECT count(*) FROM samples WHERE run_id = ?1");
    q.bind(1, a.id);
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.integer(0), 0);
}

TEST(RunStore, AMissingRunIsNamed) {
    test::TempDir dir;
    write_run(dir.file("runs.db"), 1);
    RunStore store(dir.file("runs.db"), Access::read);
    try {
        store.info(42);
        FAIL() << "no error";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("no run 42"), std::string::npos) << e.what();
    }
    EXPECT_THROW(store.remove(42), StoreError);
    EXPECT_THROW(store.add_tag(42, "x"), StoreError);
}

TEST(OpenDatabase, RefusesAFileThatIsNotSqliteAndLeavesItAlone) {
    test::TempDir dir;
    dir.write("notes.db", "these are my notes, not a database\n");
    const auto before = bytes_of(dir.file("notes.db"));
    try {
        open_database(dir.file("notes.db"), Access::write);
        FAIL() << "no error";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("not an SQLite file"), std::string::npos);
    }
    EXPECT_EQ(bytes_of(dir.file("notes.db")), before);
}

TEST(OpenDatabase, RefusesANewerSchemaAndAnotherProgramsDatabase) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    write_run(db, 1);
    {
        Connection raw(db, Connection::Mode::read_write);
        raw.exec("PRAGMA user_version = 99");
    }
    const auto before = bytes_of(db);
    try {
        RunStore store(db, Access::read);
        FAIL() << "no error";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("newer PerfLab"), std::string::npos) << e.what();
    }
    EXPECT_EQ(bytes_of(db), before);

    const auto other = dir.file("other.db");
    {
        Connection raw(other, Connection::Mode::create);
        raw.exec("CREATE TABLE contacts (name TEXT)");
    }
    EXPECT_THROW(open_database(other, Access::write), StoreError);
}

TEST(OpenDatabase, ReadingNeverCreatesAFile) {
    test::TempDir dir;
    EXPECT_THROW(RunStore(dir.file("none.db"), Access::read), StoreError);
    struct stat st {};
    EXPECT_NE(stat(dir.file("none.db").c_str(), &st), 0);
}

// An empty file (an older PerfLab killed while creating it, or `touch`) holds no run: a reader
// says so and leaves the file to a writer, which sets it up.
TEST(OpenDatabase, ReadingLeavesAnEmptyFileToItsWriter) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    dir.write("runs.db", "");
    try {
        RunStore store(db, Access::read);
        FAIL() << "no error";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("no run stored yet"), std::string::npos) << e.what();
    }
    struct stat st {};
    ASSERT_EQ(stat(db.c_str(), &st), 0);
    EXPECT_EQ(st.st_size, 0);
    write_run(db, 1);
    EXPECT_EQ(RunStore(db, Access::read).list().size(), 1u);
}

// The history's first listing and a run's store both open a window's new database at once.
TEST(OpenDatabase, WritersCreatingOneNewDatabaseAtOnceAllSucceed) {
    test::TempDir dir;
    int failures = 0;
    std::string first_error;
    for (int round = 0; round < 60; ++round) {
        const auto db = dir.file("round" + std::to_string(round) + "/runs.db");
        std::atomic<int> ready{0};
        std::vector<std::string> errors(3);
        std::vector<std::thread> writers;
        for (size_t w = 0; w < errors.size(); ++w)
            writers.emplace_back([&, w] {
                ++ready;
                while (ready.load() < int(errors.size()))
                    std::this_thread::yield();
                try {
                    open_database(db, Access::write);
                } catch (const StoreError& e) {
                    errors[w] = e.what();
                }
            });
        for (auto& t : writers)
            t.join();
        for (const auto& e : errors)
            if (!e.empty() && failures++ == 0) first_error = e;
        // What a creator set up under a name of its own is gone, moved into place or removed.
        // (runs.db's -wal and -shm may stay: SQLite removes them only when the last of
        // connections closing at once finds itself alone.)
        for (const auto& entry :
             std::filesystem::directory_iterator(dir.file("round" + std::to_string(round))))
            EXPECT_EQ(entry.path().filename().string().rfind("runs.db.new-", 0), std::string::npos)
                << entry.path();
    }
    EXPECT_EQ(failures, 0) << first_error;
    write_run(dir.file("round0/runs.db"), 1);
    EXPECT_EQ(RunStore(dir.file("round0/runs.db"), Access::read).list().size(), 1u);
}

TEST(OpenDatabase, ReadOnlyLocationIsAClearError) {
    // sysfs refuses new files even to root.
    try {
        open_database("/sys/perflab-test/runs.db", Access::write);
        FAIL() << "no error";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("/sys/perflab-test"), std::string::npos) << e.what();
    }
}

TEST(OpenDatabase, DefaultPathFollowsXdg) {
    const char* old = std::getenv("XDG_DATA_HOME");
    const std::string saved = old ? old : "";
    setenv("XDG_DATA_HOME", "/data/x", 1);
    EXPECT_EQ(default_database_path(), "/data/x/perflab/perflab.db");
    unsetenv("XDG_DATA_HOME");
    EXPECT_NE(default_database_path().find("/.local/share/perflab/perflab.db"), std::string::npos);
    if (old) setenv("XDG_DATA_HOME", saved.c_str(), 1);
}

TEST(Reports, HgrmHasHdrHistogramsLayout) {
    Histogram h;  // 1..1000 µs: every value in a bucket of its own
    for (int i = 1; i <= 1000; ++i)
        h.record(i);
    const std::string text = hgrm_text(h);
    EXPECT_EQ(text.rfind("       Value     Percentile TotalCount 1/(1-Percentile)\n\n", 0), 0u);
    EXPECT_NE(text.find("       0.001 0.000000000000          1           1.00\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("       0.500 0.500000000000        500           2.00\n"),
              std::string::npos);
    EXPECT_NE(text.find("       0.900 0.900000000000        900          10.00\n"),
              std::string::npos);
    EXPECT_NE(text.find("       0.550 0.550000000000        550           2.22\n"),
              std::string::npos);
    EXPECT_NE(text.find("       1.000 1.000000000000       1000\n#[Mean    = "), std::string::npos);
    EXPECT_NE(text.find(", StdDeviation   =        0.289]\n"), std::string::npos);
    EXPECT_NE(text.find("#[Max     =        1.000, Total count    =         1000]\n"),
              std::string::npos);
    EXPECT_NE(text.find("#[Buckets =           22, SubBuckets     =         2048]\n"),
              std::string::npos);
}

TEST(Reports, CompareHasTheServersFiguresPerPhaseAndTheJvmCommandLine) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto a = write_run(db, 4, profile(), cache_spec(), "java -Xmx2g Bootstrap");
    const auto b = write_run(db, 4, profile(), cache_spec(), "java -Xmx4g -XX:+UseG1GC Bootstrap");
    RunStore store(db, Access::read);
    const Comparison c = compare_runs(store, {a.id, b.id});
    const auto values = [&](const std::string& name) {
        for (const auto& f : c.figures)
            if (f.name == name) return f.values;
        ADD_FAILURE() << "no figure " << name;
        return std::vector<double>{};
    };
    // write_run's host ticks are busy 20, 21, 22, 23 %; its two phases split them in halves.
    EXPECT_EQ(values("host_cpu_mean_pct"), (std::vector<double>{21.5, 21.5}));
    EXPECT_EQ(values("host_cpu_max_pct"), (std::vector<double>{23, 23}));
    EXPECT_EQ(values("p1.host_cpu_mean_pct"), (std::vector<double>{20.5, 20.5}));
    EXPECT_EQ(values("p2.host_cpu_max_pct"), (std::vector<double>{23, 23}));
    ASSERT_EQ(c.hardware_differences.size(), 1u);
    EXPECT_EQ(c.hardware_differences[0].field, "/jvm_command_line");
    const std::string text = comparison_text(c);
    EXPECT_NE(text.find("-XX:+UseG1GC"), std::string::npos) << text;
    EXPECT_EQ(text.find("Machine differences: none"), std::string::npos) << text;
    EXPECT_FALSE(to_json(c)["figures"].contains("jvm_full_gcs"));  // no JVM was sampled
}

TEST(Reports, CompareShowsDeltasAndWarnsAboutOtherMachines) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto a = write_run(db, 4);
    const auto b = write_run(db, 8, profile("other-box"), cache_spec("wider keys", 5000));
    RunStore store(db, Access::read);
    const Comparison c = compare_runs(store, {a.id, b.id});
    EXPECT_TRUE(c.different_machines);
    const auto ops = std::find_if(c.figures.begin(), c.figures.end(),
                                  [](const auto& f) { return f.name == "ops"; });
    ASSERT_NE(ops, c.figures.end());
    EXPECT_DOUBLE_EQ(ops->delta_pct[1], 100.0);
    ASSERT_EQ(c.spec_differences.size(), 1u);
    EXPECT_EQ(c.spec_differences[0].field, "/cache/keys/count");
    ASSERT_EQ(c.hardware_differences.size(), 1u);
    EXPECT_EQ(c.hardware_differences[0].field, "/hostname");
    EXPECT_NE(comparison_text(c).find("different machines"), std::string::npos);
    EXPECT_EQ(to_json(c)["figures"]["ops"]["delta_pct"][1], 100.0);
}

// A run of `ticks` one-second ticks of a single phase, 1000 gets a tick: 98% of them about
// 200 µs, 2% at `tail_us`, so that the run's p99 is `tail_us`.
int64_t write_tail_run(const std::string& db, int64_t tail_us, int ticks = 20) {
    auto spec = parse_spec(nlohmann::json{{"name", "tail"},
                                          {"kind", "cache"},
                                          {"tick_ms", 1000},
                                          {"phases", {{{"duration_s", ticks}, {"concurrency", 4}}}},
                                          {"cache", {{"servers", {"127.0.0.1:11211"}}}}});
    EXPECT_TRUE(spec) << spec.error_text();
    StoreWriter writer(db, *spec.spec, profile());
    SummaryBuilder builder(RunKind::cache);
    writer.on_start(*spec.spec);
    std::mt19937_64 rng{static_cast<uint64_t>(tail_us)};
    std::uniform_int_distribution<int64_t> base(150, 250);
    for (int i = 0; i < ticks; ++i) {
        IntervalSample s;
        s.t_ms = (i + 1) * 1000;
        s.interval_ms = 1000;
        auto& get = s.ops["get"];
        get.count = 1000;
        for (int k = 0; k < 980; ++k)
            get.latency.record(base(rng));
        get.latency.record_n(tail_us, 20);
        s.hits = 900 + uint64_t(i % 3);
        s.misses = 1000 - s.hits;
        builder.add(s);
        writer.on_sample(s);
    }
    writer.on_phase_end(builder.phase(0));
    writer.on_end(builder.finish(RunStatus::completed));
    EXPECT_EQ(writer.finish(), "");
    return writer.run_id();
}

// A side's value of a judged figure is the estimate its interval is about, in the table as in
// the JSON: two runs whose p99s are 1 ms and 10 ms make a side whose p99 is that of their
// ticks pooled (1 ms: the 10 ms tail is 1% of them), not 5.5 ms, the mean of the two, which
// against a run at 5.5 ms printed "5.50ms 5.50ms (+450% worse)".
TEST(Reports, ASidesValuesAreWhatItsIntervalIsAbout) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const int64_t fast = write_tail_run(db, 1000), slow = write_tail_run(db, 10'000);
    const int64_t middle = write_tail_run(db, 5500), other = write_tail_run(db, 5400);
    RunStore store(db, Access::read);
    StatOptions options;
    options.resamples = 200;
    const Comparison c = compare_sides(store, {{fast, slow}, {middle}}, options);
    const auto estimates = compare_ticks(RunKind::cache, {store.samples(fast), store.samples(slow)},
                                         {store.samples(middle)}, options);
    Histogram pooled, alone;
    for (const int64_t id : {fast, slow})
        for (const auto& s : store.samples(id))
            pooled.merge(s.latency());
    for (const auto& s : store.samples(middle))
        alone.merge(s.latency());
    const nlohmann::json json = to_json(c);
    const std::string text = comparison_text(c);
    size_t judged = 0;
    for (const auto& f : c.figures) {
        if (!f.judged() || f.name.find('.') != std::string::npos) continue;
        ++judged;
        const auto e =
            std::find_if(estimates.begin(), estimates.end(),
                         [&](const DeltaEstimate& d) { return d.figure.name == f.name; });
        ASSERT_NE(e, estimates.end()) << f.name;
        const auto same = [](double x, double y) {
            return x == y || (std::isnan(x) && std::isnan(y));
        };
        ASSERT_EQ(f.values.size(), 2u) << f.name;
        EXPECT_TRUE(same(f.values[0], e->a)) << f.name << ": " << f.values[0] << " vs " << e->a;
        EXPECT_TRUE(same(f.values[1], e->b)) << f.name << ": " << f.values[1] << " vs " << e->b;
        for (size_t i = 0; i < 2; ++i) {
            const nlohmann::json& v = json["figures"][f.name]["values"][i];
            EXPECT_TRUE(v.is_null() ? std::isnan(f.values[i]) : v.get<double>() == f.values[i])
                << f.name << " " << v;
        }
    }
    EXPECT_EQ(judged, stat_figures(RunKind::cache).size());

    const auto p99 = std::find_if(c.figures.begin(), c.figures.end(),
                                  [](const auto& f) { return f.name == "p99_us"; });
    ASSERT_NE(p99, c.figures.end());
    EXPECT_EQ(p99->values[0], double(pooled.percentile(99)));
    EXPECT_EQ(p99->values[0], 1000);
    EXPECT_EQ(p99->values[1], double(alone.percentile(99)));
    EXPECT_NEAR(p99->values[1], 5500, 5);  // the histogram's bucket above 4 ms is 4 µs wide
    const auto row = text.find("p99_us (↓)");
    ASSERT_NE(row, std::string::npos) << text;
    const std::string line = text.substr(row, text.find('\n', row) - row);
    const auto at_a = line.find(format_latency_us(int64_t(p99->values[0])));
    const auto at_b = line.find(format_latency_us(int64_t(p99->values[1])));
    EXPECT_NE(at_a, std::string::npos) << line;
    EXPECT_NE(at_b, std::string::npos) << line;
    EXPECT_LT(at_a, at_b) << line;

    // A side of one run: within-run noise only, and how to see more.
    EXPECT_EQ(c.scope, "within-run");
    EXPECT_EQ(json["scope"], "within-run");
    EXPECT_NE(text.find("perflab ab A.json B.json --repeat N"), std::string::npos) << text;
    EXPECT_NE(text.find("--repeat N"), std::string::npos) << text;
    const Comparison series = compare_sides(store, {{fast, slow}, {middle, other}}, options);
    EXPECT_EQ(series.scope, "between-runs");
    EXPECT_EQ(to_json(series)["scope"], "between-runs");
    EXPECT_EQ(comparison_text(series).find("perflab ab"), std::string::npos);
}

TEST(Reports, MarkdownHtmlAndCsvCarryTheRun) {
    test::TempDir dir;
    const auto db = dir.file("runs.db");
    const auto a = write_run(db, 4);
    RunStore store(db, Access::read);
    const RunReport report = load_report(store, a.id);
    EXPECT_NE(report_markdown(report).find("| get |"), std::string::npos);
    EXPECT_NE(report_markdown(report).find("Test CPU"), std::string::npos);
    EXPECT_NE(report_html(report).find("<td>get</td>"), std::string::npos);
    const std::string csv = ticks_csv(store.samples(a.id), RunKind::cache);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
    EXPECT_EQ(csv.rfind("t_ms,interval_ms,phase,", 0), 0u);
    const auto j = export_json(store, a.id);
    EXPECT_EQ(j["ticks"].size(), 4u);
    EXPECT_EQ(j["probe_samples"].size(), 4u);
    EXPECT_EQ(j["run"]["id"], a.id);
}

}  // namespace
}  // namespace perflab
