// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "host_values.h"
#include "proc_snapshot.h"

namespace perflab {
namespace {

std::string fixture(const std::string& name) {
    std::ifstream in(std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/probes/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

ProcSnapshot snapshot(const std::string& name) {
    return parse_snapshot(split_head_output(fixture(name)));
}

TEST(ProcSnapshot, SplitsHeadOutputByFile) {
    const auto files = split_head_output(fixture("tick1.txt"));
    ASSERT_EQ(files.size(), host_proc_files().size());
    for (const auto& path : host_proc_files())
        EXPECT_TRUE(files.count(path)) << path;
    EXPECT_EQ(files.at("/proc/loadavg").substr(0, 4), "1.50");
}

TEST(ProcSnapshot, ParsesEveryFile) {
    const auto s = snapshot("tick1.txt");
    EXPECT_DOUBLE_EQ(s.uptime_s, 100.0);
    EXPECT_EQ(s.cpu.user, 1000u);
    EXPECT_EQ(s.cpu.idle, 8000u);
    ASSERT_EQ(s.cores.size(), 2u);
    EXPECT_EQ(s.cores[1].user, 500u);
    EXPECT_EQ(s.ctxt, 5000u);
    EXPECT_EQ(s.procs_running, 3u);
    EXPECT_DOUBLE_EQ(s.load5, 0.75);
    EXPECT_EQ(s.meminfo.at("MemTotal"), 1000000u * 1024);
    EXPECT_EQ(s.meminfo.at("HugePages_Total"), 0u);
    EXPECT_EQ(s.net.at("eth0").tx_bytes, 20000u);
    EXPECT_EQ(s.tcp_retrans, 10u);
}

TEST(ProcSnapshot, KeepsWholeUsedDisksOnly) {
    const auto s = snapshot("tick1.txt");
    std::vector<std::string> names;
    for (const auto& [name, c] : s.disks)
        names.push_back(name);
    EXPECT_EQ(names, (std::vector<std::string>{"nvme0n1", "sda"}));
    EXPECT_EQ(s.disks.at("sda").sectors_read, 4000u);
    EXPECT_EQ(s.disks.at("sda").io_ms, 1000u);
}

TEST(HostValues, RatesFromTwoSnapshots) {
    const auto v = host_values(snapshot("tick1.txt"), snapshot("tick2.txt"), true);
    // 500 jiffies in all: user+nice 200, system+irq+softirq 140, iowait 50, steal 10, idle 100.
    EXPECT_DOUBLE_EQ(v["cpu_user"].get<double>(), 40.0);
    EXPECT_DOUBLE_EQ(v["cpu_system"].get<double>(), 28.0);
    EXPECT_DOUBLE_EQ(v["cpu_iowait"].get<double>(), 10.0);
    EXPECT_DOUBLE_EQ(v["cpu_steal"].get<double>(), 2.0);
    EXPECT_DOUBLE_EQ(v["cpu_idle"].get<double>(), 20.0);
    EXPECT_DOUBLE_EQ(v["cpu_busy"].get<double>(), 70.0);
    EXPECT_DOUBLE_EQ(v["cpu0_busy"].get<double>(), 100.0);
    EXPECT_DOUBLE_EQ(v["cpu1_busy"].get<double>(), 20.0);
    EXPECT_DOUBLE_EQ(v["ctx_switches_ps"].get<double>(), 1000.0);
    EXPECT_DOUBLE_EQ(v["tcp_retrans_ps"].get<double>(), 10.0);
    EXPECT_DOUBLE_EQ(v["load1"].get<double>(), 1.5);
    EXPECT_EQ(v["procs_running"], 3);
}

TEST(HostValues, NetworkTotalLeavesLoopbackOut) {
    const auto v = host_values(snapshot("tick1.txt"), snapshot("tick2.txt"), false);
    EXPECT_DOUBLE_EQ(v["net.eth0.rx_Bps"].get<double>(), 2000.0);
    EXPECT_DOUBLE_EQ(v["net.eth0.tx_Bps"].get<double>(), 500.0);
    EXPECT_DOUBLE_EQ(v["net.lo.rx_Bps"].get<double>(), 1000000.0);
    EXPECT_DOUBLE_EQ(v["net_rx_Bps"].get<double>(), 3000.0);
    EXPECT_DOUBLE_EQ(v["net_tx_Bps"].get<double>(), 500.0);
    EXPECT_FALSE(v.contains("cpu0_busy"));
}

TEST(HostValues, DiskThroughputAndUtilisation) {
    const auto v = host_values(snapshot("tick1.txt"), snapshot("tick2.txt"), false);
    EXPECT_DOUBLE_EQ(v["disk.sda.read_Bps"].get<double>(), 4000.0 * 512 / 2);
    EXPECT_DOUBLE_EQ(v["disk.sda.write_Bps"].get<double>(), 2000.0 * 512 / 2);
    EXPECT_DOUBLE_EQ(v["disk.sda.util_pct"].get<double>(), 50.0);
    EXPECT_DOUBLE_EQ(v["disk.nvme0n1.read_Bps"].get<double>(), 0.0);
}

TEST(HostValues, MemoryInBytes) {
    const auto v = host_values(snapshot("tick1.txt"), snapshot("tick2.txt"), false);
    EXPECT_EQ(v["mem_total"], 1000000ull * 1024);
    EXPECT_EQ(v["mem_available"], 600000ull * 1024);
    EXPECT_EQ(v["mem_used"], 400000ull * 1024);
    EXPECT_EQ(v["mem_cached"], 300000ull * 1024);
    EXPECT_EQ(v["swap_used"], 60000ull * 1024);
}

TEST(HostValues, RealCapturesGiveSaneFigures) {
    const auto v = host_values(snapshot("bundle_a.txt"), snapshot("bundle_b.txt"), true);
    const double busy = v["cpu_busy"];
    EXPECT_GE(busy, 0.0);
    EXPECT_LE(busy, 100.0);
    EXPECT_DOUBLE_EQ(v["cpu_user"].get<double>() + v["cpu_system"].get<double>() +
                         v["cpu_iowait"].get<double>() + v["cpu_steal"].get<double>() +
                         v["cpu_idle"].get<double>(),
                     100.0);
    EXPECT_EQ(v["mem_total"], 24683656ull * 1024);
    EXPECT_TRUE(v.contains("disk.vda.util_pct"));
    EXPECT_FALSE(v.contains("disk.loop0.util_pct"));
    EXPECT_TRUE(v.contains("net.eth0.rx_Bps"));
}

TEST(HostValues, SameInstantGivesNoRates) {
    const auto s = snapshot("tick1.txt");
    const auto v = host_values(s, s, false);
    EXPECT_FALSE(v.contains("net_rx_Bps"));
    EXPECT_DOUBLE_EQ(v["cpu_busy"].get<double>(), 0.0);
}

TEST(SelfStat, CountsFieldsFromTheLastParenthesis) {
    const auto s = parse_self_stat(fixture("self_stat.txt"));
    EXPECT_EQ(s.cpu_ticks, 1750u);
    EXPECT_EQ(s.threads, 7u);
    EXPECT_EQ(s.rss_pages, 12345u);
}

TEST(ProcSnapshot, EmptyAndGarbageTextGiveEmptyParts) {
    ProcSnapshot s;
    parse_proc_stat("", s);
    parse_net_dev("garbage\n::\n", s);
    parse_diskstats("1 2\n", s);
    parse_loadavg("x", s);
    EXPECT_TRUE(s.cores.empty());
    EXPECT_TRUE(s.net.empty());
    EXPECT_TRUE(s.disks.empty());
    EXPECT_TRUE(split_head_output("no header\n").empty());
}

}  // namespace
}  // namespace perflab
