// SPDX-License-Identifier: MIT
// `perflab import-host FILE.nmon --run ID`: a capture the real nmon (Debian's) wrote of this
// machine during a run, added to the stored run as a host's samples on its clock, agrees tick
// by tick with the machine's own reading, as PerfLab's local probe of the same run does; its
// network, disk and process sections are the kernel's counts.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "memcached_server.h"
#include "net_namespace.h"
#include "proc_stat_log.h"
#include "process.h"
#include "reading_log.h"

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

// Run 1 of `spec` in dir's runs.db, with Debian's nmon capturing this machine beside it to
// dir's capture.nmon (a snapshot a second, and `flags`), then the capture imported into the
// run; `said`: what the import printed.
void run_with_nmon(TempDir& dir, const json& spec, std::vector<std::string> flags,
                   std::string& said) {
    dir.write("spec.json", spec.dump());
    const std::string db = dir.file("runs.db"), capture = dir.file("capture.nmon");
    // nmon -F goes to the background and prints its pid (-p): it ends after its snapshots.
    std::vector<std::string> nmon = {"nmon", "-F", capture, "-s", "1", "-p"};
    nmon.insert(nmon.end(), flags.begin(), flags.end());
    const auto started = run(nmon);
    ASSERT_EQ(started.code, 0) << started.err;
    const pid_t nmon_pid = std::stoi(started.out);
    const auto perflab = run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "--quiet"});
    ASSERT_EQ(perflab.code, 0) << perflab.err;
    ASSERT_TRUE(wait_until([&] { return ::kill(nmon_pid, 0) != 0; }, std::chrono::seconds(30)));
    const auto imported = run({PERFLAB_BINARY, "import-host", capture, "--run", "1", "--db", db});
    ASSERT_EQ(imported.code, 0) << imported.err;
    said = imported.err;
}

// The source the import stored the capture's samples under: "nmon HOST".
std::string nmon_source(const json& stored) {
    for (const auto& s : stored["probe_samples"])
        if (s["source"].get<std::string>().starts_with("nmon ")) return s["source"];
    return "";
}

// A snapshot's values are over the interval from the snapshot before to its own ZZZZ time,
// which nmon stamps in whole seconds: each interval ends somewhere in the second after its
// stamp, at about the same fraction for every snapshot of a capture. The machine's figure over
// each window shifted by the fraction that fits nmon's readings (`theirs`) best.
std::vector<double> fitted(const std::vector<std::pair<int64_t, int64_t>>& windows,
                           const std::vector<double>& theirs,
                           const std::function<double(int64_t from, int64_t to)>& machine) {
    std::vector<double> best;
    double best_worst = 1e300;
    for (int64_t shift = 0; shift < 1000; shift += 50) {
        std::vector<double> values;
        double worst = 0;
        for (size_t i = 0; i < windows.size(); ++i) {
            values.push_back(machine(windows[i].first + shift, windows[i].second + shift));
            worst = std::max(worst, std::abs(values.back() - theirs[i]));
        }
        if (worst < best_worst) {
            best_worst = worst;
            best = std::move(values);
        }
    }
    return best;
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
    const std::string db = dir.file("runs.db"), capture = dir.file("capture.nmon");
    std::string said;
    ASSERT_NO_FATAL_FAILURE(run_with_nmon(dir, spec, {"-c", "12"}, said));
    EXPECT_NE(said.find("of nmon "), std::string::npos) << said;

    const json stored = exported(db);
    ASSERT_TRUE(stored.is_object());
    const auto local = samples_of(stored, "local");
    const std::string host = nmon_source(stored);
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

    // Snapshots within the run's steady part, against the machine's reading over the same
    // seconds (fitted).
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
    const std::vector<double> best = fitted(windows, theirs, [&](int64_t from, int64_t to) {
        return proc_stat.busy_pct(started + from, started + to, false);
    });
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

// What the kernel counts of the second test's loads: a process's CPU time in clock ticks and
// an interface's bytes sent.
struct KernelCounts {
    double cpu_ticks = 0;
    double tx_bytes = 0;
};

double process_ticks(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    // After the command's closing parenthesis: state, then utime and stime are the 12th and
    // 13th fields (proc(5)'s 14th and 15th).
    const size_t command_end = text.rfind(')');
    if (command_end == std::string::npos) return 0;
    std::istringstream fields(text.substr(command_end + 1));
    std::string field;
    double ticks = 0;
    for (int i = 1; i <= 13 && fields >> field; ++i)
        if (i >= 12) ticks += std::stod(field);
    return ticks;
}

double tx_bytes(const std::string& iface) {
    std::ifstream in("/sys/class/net/" + iface + "/statistics/tx_bytes");
    double bytes = 0;
    in >> bytes;
    return bytes;
}

// The devices /proc/diskstats names.
std::set<std::string> disk_names() {
    std::ifstream in("/proc/diskstats");
    std::set<std::string> out;
    for (std::string line; std::getline(in, line);) {
        std::istringstream f(line);
        std::string major, minor, name;
        if (f >> major >> minor >> name) out.insert(name);
    }
    return out;
}

// nmon's NET section (bytes sent per interface) and TOP section (each process's CPU), as
// imported, are what the kernel counted over each snapshot: a steady stream of UDP out of a
// veth pair to a namespace, and a busy loop under a name of its own. Its DISKBUSY names the
// kernel's disks, each 0-100% busy.
TEST(ImportHost, AnNmonCapturesNetworkAndProcessesAreTheKernels) {
    TempDir dir;
    MemcachedServer memcached;
    NetNamespace other;
    const std::string iface = other.host_interface();
    // nmon's TOP names a process by its executable's name.
    const std::string spin = dir.file("perflabspin");
    ASSERT_EQ(::symlink("/bin/sh", spin.c_str()), 0);
    Process busy({spin, "-c", "while :; do :; done"});
    const pid_t busy_pid = busy.pid();
    const double clock_ticks = double(::sysconf(_SC_CLK_TCK));
    ReadingLog<KernelCounts> kernel([&] {
        return KernelCounts{process_ticks(busy_pid), tx_bytes(iface)};
    });
    // 2 MB/s of datagrams to the namespace, sent every 5 ms (nobody listens there: they leave
    // this side all the same).
    std::jthread sender([&](std::stop_token stop) {
        const int fd = ::socket(AF_INET, SOCK_DGRAM, 0);
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_port = htons(9);
        ::inet_pton(AF_INET, other.address().c_str(), &to.sin_addr);
        const std::vector<char> payload(1000, 'x');
        auto next = std::chrono::steady_clock::now();
        while (!stop.stop_requested()) {
            for (int i = 0; i < 10; ++i)
                ::sendto(fd, payload.data(), payload.size(), 0, reinterpret_cast<sockaddr*>(&to),
                         sizeof to);
            next += std::chrono::milliseconds(5);
            std::this_thread::sleep_until(next);
        }
        ::close(fd);
    });
    const json spec = {{"name", "nmon net"},
                       {"kind", "cache"},
                       {"tick_ms", 1000},
                       {"phases", {{{"rate", 200}, {"duration_s", 8}, {"concurrency", 2}}}},
                       {"cache", {{"servers", {memcached.endpoint()}}}}};
    // -t: the top processes, from the second snapshot on.
    std::string said;
    ASSERT_NO_FATAL_FAILURE(run_with_nmon(dir, spec, {"-c", "10", "-t"}, said));
    const std::string capture = dir.file("capture.nmon");
    const json stored = exported(dir.file("runs.db"));
    const auto snapshots = samples_of(stored, nmon_source(stored));
    const int64_t started = stored["run"]["started_at_ms"].get<int64_t>();
    const std::string net_key = "net." + iface + ".tx_Bps", top_key = "top.perflabspin.cpu_pct";
    std::vector<std::pair<int64_t, int64_t>> windows;
    std::vector<double> net, top;
    for (size_t i = 1; i < snapshots.size(); ++i) {
        const json& v = snapshots[i]["values"];
        if (!v.contains(net_key) || !v.contains(top_key)) continue;
        windows.emplace_back(snapshots[i - 1]["t_ms"].get<int64_t>(),
                             snapshots[i]["t_ms"].get<int64_t>());
        net.push_back(v[net_key].get<double>());
        top.push_back(v[top_key].get<double>());
    }
    // nmon's pace, which a loaded machine slows.
    ASSERT_GE(windows.size(), 4u) << read_file(capture);
    const auto rate = [&](int64_t from, int64_t to, double KernelCounts::*count) {
        const auto [t0, a] = kernel.at(started + from);
        const auto [t1, b] = kernel.at(started + to);
        return t1 > t0 ? (b.*count - a.*count) * 1000.0 / double(t1 - t0) : 0.0;
    };
    const auto kernel_net = fitted(windows, net, [&](int64_t from, int64_t to) {
        return rate(from, to, &KernelCounts::tx_bytes);
    });
    const auto kernel_top = fitted(windows, top, [&](int64_t from, int64_t to) {
        return rate(from, to, &KernelCounts::cpu_ticks) * 100.0 / clock_ticks;
    });
    for (size_t i = 0; i < windows.size(); ++i) {
        EXPECT_GT(kernel_net[i], 1e6) << "the stream was sent";
        EXPECT_NEAR(net[i], kernel_net[i], 0.1 * kernel_net[i])
            << "snapshot ending at " << windows[i].second;
        EXPECT_GT(kernel_top[i], 30) << "the busy loop ran";
        EXPECT_NEAR(top[i], kernel_top[i], 10) << "snapshot ending at " << windows[i].second;
    }
    std::cout << iface << " sent " << net.front() << " B/s (kernel " << kernel_net.front()
              << "), perflabspin " << top.front() << "% CPU (kernel " << kernel_top.front()
              << "%) in the first of " << windows.size() << " snapshots\n";

    const auto disks = disk_names();
    int busy_values = 0;
    for (const auto& s : snapshots)
        for (const auto& [key, value] : s["values"].items()) {
            if (!key.starts_with("disk.") || !key.ends_with(".util_pct")) continue;
            const std::string dev = key.substr(5, key.size() - 5 - 9);
            EXPECT_TRUE(disks.count(dev)) << dev << " is no disk of /proc/diskstats";
            EXPECT_GE(value.get<double>(), 0) << key;
            EXPECT_LE(value.get<double>(), 100) << key;
            ++busy_values;
        }
    EXPECT_GT(busy_values, 0) << read_file(capture);
}

}  // namespace
}  // namespace perflab::test
