// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <time.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "local_probe.h"
#include "process.h"
#include "ssh_probe.h"
#include "sshd_server.h"

namespace perflab {
namespace {

using namespace std::chrono_literals;

// The test's own reading of /proc/stat's first line: busy and total jiffies.
std::pair<uint64_t, uint64_t> cpu_jiffies() {
    std::istringstream in(test::read_file("/proc/stat"));
    std::string cpu;
    uint64_t v[8] = {};
    in >> cpu;
    for (auto& x : v)
        in >> x;
    uint64_t total = 0;
    for (auto x : v)
        total += x;
    return {total - v[3] - v[4], total};
}

uint64_t process_jiffies(pid_t pid) {
    const std::string stat = test::read_file("/proc/" + std::to_string(pid) + "/stat");
    std::istringstream in(stat.substr(stat.rfind(')') + 2));
    std::string f;
    uint64_t utime = 0, stime = 0;
    for (int field = 3; in >> f; ++field) {
        if (field == 14) utime = std::stoull(f);
        if (field == 15) stime = std::stoull(f);
    }
    return utime + stime;
}

uint64_t meminfo_kb(const std::string& name) {
    std::istringstream in(test::read_file("/proc/meminfo"));
    std::string key;
    uint64_t value = 0;
    std::string unit;
    while (in >> key >> value) {
        if (key == name + ":") return value;
        std::getline(in, unit);
    }
    return 0;
}

// One busy loop, measured by `probe` over two seconds, against two readings the test takes
// itself over the same window: the machine's busy share from /proc/stat, and the loop's own
// CPU time from /proc/PID/stat. Whatever else the machine does counts in the first, so the
// probe is held to that, and to having seen at least the loop: on a quiet machine or a busy one.
void expect_busy_loop_seen(Probe& probe) {
    test::Process burner({"sh", "-c", "while :; do :; done"});
    ASSERT_TRUE(test::wait_until([&] { return process_jiffies(burner.pid()) > 0; }));
    probe.open();
    const auto [busy0, total0] = cpu_jiffies();
    const uint64_t burn0 = process_jiffies(burner.pid());
    std::this_thread::sleep_for(2s);  // the measurement window, not a wait for anything
    const ProbeReading r = probe.poll();
    const auto [busy1, total1] = cpu_jiffies();
    const uint64_t burn1 = process_jiffies(burner.pid());
    ASSERT_TRUE(r.ready && !r.gap);
    const double reported = r.values["cpu_busy"];
    const double seen = 100.0 * double(busy1 - busy0) / double(total1 - total0);
    const double burner_share = 100.0 * double(burn1 - burn0) / double(total1 - total0);
    std::printf("%s: cpu_busy %.1f%% (test's own reading %.1f%%, busy loop %.1f%%)\n",
                probe.source().c_str(), reported, seen, burner_share);
    EXPECT_GT(burner_share, 0.0) << "the busy loop never ran";
    EXPECT_NEAR(reported, seen, 5.0);
    EXPECT_GE(reported, burner_share - 5.0) << "the probe missed the busy loop's own CPU time";
    // One loop is at most one of the machine's cores.
    EXPECT_LE(burner_share, 100.0 / std::thread::hardware_concurrency() + 5.0);
}

TEST(LocalProbe, SeesABusyLoop) {
    LocalProbe probe;
    expect_busy_loop_seen(probe);
}

TEST(SshProbe, SeesABusyLoop) {
    test::SshdServer server;
    SshOptions o;
    o.key_file = server.client_key();
    o.known_hosts = server.known_hosts();
    SshProbe probe(*parse_ssh_target(server.target()), o);
    expect_busy_loop_seen(probe);
}

TEST(LocalProbe, MemoryMatchesMeminfo) {
    LocalProbe probe;
    probe.open();
    std::this_thread::sleep_for(100ms);
    const auto v = probe.poll().values;
    EXPECT_EQ(v["mem_total"].get<uint64_t>(), meminfo_kb("MemTotal") * 1024);
    const double total = double(meminfo_kb("MemTotal")) * 1024;
    EXPECT_NEAR(v["mem_available"].get<double>(), double(meminfo_kb("MemAvailable")) * 1024,
                total * 0.02);
    EXPECT_NEAR(v["mem_cached"].get<double>(), double(meminfo_kb("Cached")) * 1024, total * 0.02);
    EXPECT_EQ(v["mem_used"].get<uint64_t>() + v["mem_available"].get<uint64_t>(),
              v["mem_total"].get<uint64_t>());
    const double swap_used = double(meminfo_kb("SwapTotal") - meminfo_kb("SwapFree")) * 1024;
    EXPECT_NEAR(v["swap_used"].get<double>(), swap_used, total * 0.02);
}

double process_cpu_s() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

TEST(LocalProbe, WatchesItsOwnProcess) {
    LocalProbe probe;
    const double cpu0 = process_cpu_s();
    const auto t0 = std::chrono::steady_clock::now();
    probe.open();
    std::thread spinner([] {
        const auto end = std::chrono::steady_clock::now() + 1s;
        while (std::chrono::steady_clock::now() < end) {
        }
    });
    spinner.join();
    const auto v = probe.poll().values;
    const double expected =
        100.0 * (process_cpu_s() - cpu0) /
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // The spinner had one core for as long as the machine gave it one: most of a second on a
    // quiet machine, a tenth of it on a loaded one.
    EXPECT_NEAR(v["self_cpu_pct"].get<double>(), expected, 15.0);
    EXPECT_GT(v["self_cpu_pct"].get<double>(), expected / 2);
    EXPECT_GE(v["self_threads"].get<int>(), 1);
    std::istringstream status(test::read_file("/proc/self/status"));
    uint64_t rss_kb = 0;
    for (std::string line; std::getline(status, line);)
        if (line.starts_with("VmRSS:")) rss_kb = std::stoull(line.substr(6));
    EXPECT_NEAR(v["self_rss"].get<double>(), double(rss_kb) * 1024, double(rss_kb) * 1024 * 0.2);
    EXPECT_GT(v["self_rss"].get<double>(), 1024.0 * 1024);
}

}  // namespace
}  // namespace perflab
