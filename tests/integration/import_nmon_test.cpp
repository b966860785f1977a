// SPDX-License-Identifier: MIT
// `perflab import-host FILE.nmon --run ID`: a capture the real nmon (Debian's) wrote of this
// machine during a run, added to the stored run as a host's samples on its clock, agrees tick
// by tick with the machine's own reading, as PerfLab's local probe of the same run does.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <utility>
#include <vector>

#include "memcached_server.h"
#include "proc_stat_log.h"
#include "process.h"

namespace perflab::test {
namespace {

using nlohmann::json;

json exported(const std::string& db) {
    const auto out = run({PERFLAB_BINARY, "export", "1", "--db", db, "--format", "json"});
    EXPECT_EQ(out.code, 0) << out.err;
    return json::parse(out.out, nullptr, false);
}

std::vector<json> samples_of(const json& run, const std::string& source) {
    std::vector<json> out;
    for (const auto& s : run["probe_samples"])
        if (s["source"] == source) out.push_back(s);
    return out;
}

TEST(ImportHost, AnNmonCaptureAgreesWithTheLocalProbe) {
    TempDir dir;
    MemcachedServer memcached;
    // One core busy, so the CPU sits away from both ends where any reading agrees.
    Process busy({"sh", "-c", "while :; do :; done"});
    ProcStatLog proc_stat;
    const json spec = {{"name", "nmon"},
                       {"kind", "cache"},
                       {"tick_ms", 1000},
                       {"phases", {{{"rate", 200}, {"duration_s", 8}, {"concurrency", 2}}}},
                       {"cache", {{"servers", {memcached.endpoint()}}}},
                       {"probes", {{{"local", true}}}}};
    dir.write("spec.json", spec.dump());
    const std::string db = dir.file("runs.db"), capture = dir.file("capture.nmon");
    // nmon -F goes to the background and prints its pid (-p): it ends after its snapshots.
    const auto nmon = run({"nmon", "-F", capture, "-s", "1", "-c", "12", "-p"});
    ASSERT_EQ(nmon.code, 0) << nmon.err;
    const pid_t nmon_pid = std::stoi(nmon.out);
    const auto perflab = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "--quiet"});
    ASSERT_EQ(perflab.code, 0) << perflab.err;
    ASSERT_TRUE(wait_until([&] { return ::kill(nmon_pid, 0) != 0; }, std::chrono::seconds(30)));

    const auto imported = run({PERFLAB_BINARY, "import-host", capture, "--run", "1", "--db", db});
    ASSERT_EQ(imported.code, 0) << imported.err;
    EXPECT_NE(imported.err.find("of nmon "), std::string::npos) << imported.err;

    const json stored = exported(db);
    ASSERT_TRUE(stored.is_object());
    const auto local = samples_of(stored, "local");
    std::string host;
    for (const auto& s : stored["probe_samples"])
        if (s["source"].get<std::string>().starts_with("nmon ")) host = s["source"];
    const auto nmon_samples = samples_of(stored, host);
    ASSERT_GE(local.size(), 6u);
    ASSERT_GE(nmon_samples.size(), 6u) << read_file(capture);

    // Tick by tick, each reading agrees with the machine's own, /proc/stat over the same
    // window: where the two probes' windows differ (the machine has other work), so may their
    // readings. A local tick covers the time since the one before; the run's first and last
    // ticks are left out.
    const int64_t started = stored["run"]["started_at_ms"].get<int64_t>();
    const auto t_of = [](const json& s) { return s["t_ms"].get<int64_t>(); };
    const auto cpu_of = [](const json& s) { return s["values"]["cpu_busy"].get<double>(); };
    const int64_t first = t_of(local.front()), last = t_of(local.back());
    double ours = 0, machine_ours = 0;
    int ticks = 0;
    for (size_t i = 1; i + 1 < local.size(); ++i) {
        const int64_t from = t_of(local[i - 1]), to = t_of(local[i]);
        const double machine = proc_stat.busy_pct(started + from, started + to, false);
        EXPECT_NEAR(cpu_of(local[i]), machine, 5) << "local tick ending at " << to << " ms";
        ours += cpu_of(local[i]) * double(to - from);
        machine_ours += machine * double(to - from);
        ++ticks;
    }
    ASSERT_GE(ticks, 4);
    const double ours_span = double(t_of(local[local.size() - 2]) - first);
    EXPECT_GT(machine_ours / ours_span, 30) << "the busy loop is one core";

    // A snapshot's values are over the interval from the snapshot before to its own ZZZZ time,
    // which nmon stamps in whole seconds: each interval ends somewhere in the second after its
    // stamp, at about the same fraction for every snapshot of a capture. Snapshots within the
    // run's steady part are compared with the machine's reading over the same seconds shifted
    // by that fraction (the one that fits nmon's readings best is nmon's).
    std::vector<std::pair<int64_t, int64_t>> windows;
    std::vector<double> theirs;
    for (size_t i = 1; i < nmon_samples.size(); ++i) {
        const int64_t from = t_of(nmon_samples[i - 1]), to = t_of(nmon_samples[i]);
        if (from < first || to + 1000 > last) continue;
        windows.emplace_back(from, to);
        theirs.push_back(cpu_of(nmon_samples[i]));
    }
    // Snapshots on the run's clock: a capture put an hour off would have none in the run.
    // How many there are is nmon's pace, which a loaded machine slows (4 in 7 s seen).
    ASSERT_GE(windows.size(), 3u) << read_file(capture);
    std::vector<double> best;
    double best_worst = 1e9;
    for (int64_t shift = 0; shift < 1000; shift += 50) {
        std::vector<double> machine;
        double worst = 0;
        for (size_t i = 0; i < windows.size(); ++i) {
            machine.push_back(proc_stat.busy_pct(started + windows[i].first + shift,
                                                 started + windows[i].second + shift, false));
            worst = std::max(worst, std::abs(machine.back() - theirs[i]));
        }
        if (worst < best_worst) {
            best_worst = worst;
            best = std::move(machine);
        }
    }
    double their_mean = 0, machine_theirs = 0;
    for (size_t i = 0; i < windows.size(); ++i) {
        EXPECT_NEAR(theirs[i], best[i], 5) << "nmon snapshot ending at " << windows[i].second;
        their_mean += theirs[i] / double(windows.size());
        machine_theirs += best[i] / double(windows.size());
    }
    std::cout << "cpu_busy: local probe " << ours / ours_span << "% (machine "
              << machine_ours / ours_span << "%) over " << ticks << " ticks, nmon " << their_mean
              << "% (machine " << machine_theirs << "%) over " << windows.size() << " snapshots\n";
    // Memory in bytes as the local probe's, from nmon's MB.
    EXPECT_NEAR(nmon_samples.front()["values"]["mem_total"].get<double>(),
                local.front()["values"]["mem_total"].get<double>(),
                local.front()["values"]["mem_total"].get<double>() * 0.01);

    // The same capture again, a file that is not one, a run it does not overlap: bad input.
    const auto again = run({PERFLAB_BINARY, "import-host", capture, "--run", "1", "--db", db});
    EXPECT_EQ(again.code, 2);
    EXPECT_NE(again.err.find("already has samples"), std::string::npos) << again.err;
    dir.write("not.nmon", "timeStamp,elapsed\n1,2\n");
    const auto garbage =
        run({PERFLAB_BINARY, "import-host", dir.file("not.nmon"), "--run", "1", "--db", db});
    EXPECT_EQ(garbage.code, 2);
    EXPECT_NE(garbage.err.find("line 1: not an nmon capture"), std::string::npos) << garbage.err;
    // The same capture, 25 years earlier.
    dir.write("old.nmon", std::regex_replace(read_file(capture),
                                             std::regex(R"((\d\d-[A-Z]{3}-)20\d\d)"), "$012001"));
    const auto old = run({PERFLAB_BINARY, "import-host", dir.file("old.nmon"), "--run", "1", "--db",
                          db, "--host", "old"});
    EXPECT_EQ(old.code, 2);
    EXPECT_NE(old.err.find("does not overlap run 1"), std::string::npos) << old.err;
    EXPECT_EQ(samples_of(exported(db), host).size(), nmon_samples.size());
}

}  // namespace
}  // namespace perflab::test
