// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "process.h"
#include "remote/hardware_profile.h"

namespace perflab {
namespace {

constexpr const char* kCpuinfo = R"(processor	: 0
vendor_id	: GenuineIntel
model name	: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz
cpu MHz		: 2100.000
cache size	: 28160 KB
physical id	: 0
core id		: 0

processor	: 1
model name	: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz
cpu MHz		: 2100.000
physical id	: 0
core id		: 0

processor	: 2
model name	: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz
physical id	: 1
core id		: 0

processor	: 3
model name	: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz
physical id	: 1
core id		: 1
)";

TEST(HardwareParsers, Cpuinfo) {
    HardwareProfile p;
    parse_cpuinfo(kCpuinfo, p);
    EXPECT_EQ(p.cpu_model, "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz");
    EXPECT_EQ(p.threads, 4);
    EXPECT_EQ(p.sockets, 2);
    EXPECT_EQ(p.cores, 3);
    EXPECT_DOUBLE_EQ(p.mhz, 2100.0);
    EXPECT_EQ(p.caches.at("cache"), "28160 KB");
}

TEST(HardwareParsers, CpuinfoWithoutTopology) {
    HardwareProfile p;
    parse_cpuinfo("processor\t: 0\nBogoMIPS\t: 50.00\n\nprocessor\t: 1\n", p);
    EXPECT_EQ(p.threads, 2);
    EXPECT_EQ(p.cores, 2);
    EXPECT_EQ(p.sockets, 1);
}

TEST(HardwareParsers, MeminfoAndOsRelease) {
    HardwareProfile p;
    parse_meminfo("MemTotal:       24683656 kB\nMemFree: 1 kB\nSwapTotal:       1048572 kB\n", p);
    EXPECT_EQ(p.memory_total_bytes, 24683656ull * 1024);
    EXPECT_EQ(p.swap_total_bytes, 1048572ull * 1024);
    parse_os_release(
        "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\n"
        "VERSION_ID=\"12\"\nVERSION=\"12 (bookworm)\"\nID=debian\n",
        p);
    EXPECT_EQ(p.os_name, "Debian GNU/Linux");
    EXPECT_EQ(p.os_version, "12 (bookworm)");
}

TEST(HardwareParsers, MountsOfADiskAndItsPartitions) {
    const char* mounts =
        "/dev/sdab1 /data ext4 rw 0 0\n/dev/nvme0n1p2 / ext4 rw 0 0\n"
        "/dev/sda1 /boot ext4 rw 0 0\n";
    EXPECT_EQ(mount_for_device(mounts, "nvme0n1"), "/");
    EXPECT_EQ(mount_for_device(mounts, "sda"), "/boot");
    EXPECT_EQ(mount_for_device(mounts, "sdb"), "");
}

TEST(HardwareProfile, JsonRoundTripAndIdentity) {
    HardwareProfile p;
    parse_cpuinfo(kCpuinfo, p);
    p.hostname = "box";
    p.disks = {{"sda", 1000, "/"}};
    p.net_settings["net.core.somaxconn"] = "4096";
    const HardwareProfile back = profile_from_json(to_json(p));
    EXPECT_EQ(to_json(back), to_json(p));
    EXPECT_EQ(back.identity(), p.identity());
    HardwareProfile faster = p;
    faster.mhz = 3000;  // the clock of the moment is not another machine
    EXPECT_EQ(faster.identity(), p.identity());
    HardwareProfile other = p;
    other.memory_total_bytes += 1;
    EXPECT_NE(other.identity(), p.identity());
}

std::string shell(const std::string& command) {
    return test::run({"/bin/sh", "-c", command}).out;
}

std::string trimmed(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

// The local profile against the same facts read by the system's own tools.
TEST(LocalHardwareProfile, MatchesProcDfAndOsRelease) {
    const HardwareProfile p = local_hardware_profile();
    EXPECT_EQ(std::to_string(p.threads), trimmed(shell("grep -c '^processor' /proc/cpuinfo")));
    EXPECT_EQ(p.cpu_model,
              trimmed(shell("grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//'")));
    EXPECT_EQ(std::to_string(p.memory_total_bytes / 1024),
              trimmed(shell("awk '/^MemTotal:/ {print $2}' /proc/meminfo")));
    EXPECT_EQ(std::to_string(p.swap_total_bytes / 1024),
              trimmed(shell("awk '/^SwapTotal:/ {print $2}' /proc/meminfo")));
    EXPECT_EQ(p.os_name, trimmed(shell(". /etc/os-release && echo \"$NAME\"")));
    EXPECT_EQ(p.kernel, "Linux " + trimmed(shell("uname -r")));
    EXPECT_EQ(p.hostname, trimmed(shell("hostname")));
    EXPECT_GE(p.cores, 1);
    EXPECT_LE(p.cores, p.threads);
    EXPECT_GE(p.sockets, 1);

    // Every mounted disk's mount point is one df reports for a device of that disk, and the
    // disk is at least as large as the filesystem on it.
    int mounted = 0;
    for (const auto& d : p.disks) {
        EXPECT_GT(d.size_bytes, 0u) << d.device;
        if (d.mount.empty()) continue;
        ++mounted;
        const std::string df =
            trimmed(shell("df -B1 --output=source,size '" + d.mount + "' | tail -1"));
        std::istringstream fields(df);
        std::string source;
        uint64_t size = 0;
        fields >> source >> size;
        EXPECT_EQ(source.rfind("/dev/" + d.device, 0), 0u) << df;
        EXPECT_GE(d.size_bytes, size) << d.device;
    }
    const std::string root_source = trimmed(shell("df --output=source / | tail -1"));
    if (root_source.rfind("/dev/", 0) == 0 && root_source.find("mapper") == std::string::npos) {
        EXPECT_GE(mounted, 1) << "/ is on " << root_source;
    }

    rlimit limit{};
    getrlimit(RLIMIT_NOFILE, &limit);
    EXPECT_EQ(p.open_files_limit, uint64_t(limit.rlim_cur));
    EXPECT_EQ(p.net_settings.at("net.core.somaxconn"),
              trimmed(shell("cat /proc/sys/net/core/somaxconn")));
    EXPECT_EQ(p.net_settings.at("net.ipv4.ip_local_port_range"),
              trimmed(shell("tr -s '\\t ' ' ' < /proc/sys/net/ipv4/ip_local_port_range")));
    EXPECT_EQ(p.net_settings.at("net.ipv4.tcp_tw_reuse"),
              trimmed(shell("cat /proc/sys/net/ipv4/tcp_tw_reuse")));
    EXPECT_FALSE(p.perflab_version.empty());
}

}  // namespace
}  // namespace perflab
