// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace perflab {

struct DiskInfo {
    std::string device;  // sda, nvme0n1
    uint64_t size_bytes = 0;
    std::string mount;  // where its first mounted filesystem is, if any
};

// The machine a run saw, the way field reports begin: CPU, memory, disks, OS. The load
// generator's profile also carries the settings that cap a load generator.
struct HardwareProfile {
    std::string hostname;
    std::string cpu_model;
    int sockets = 0;
    int cores = 0;    // physical
    int threads = 0;  // logical CPUs
    double mhz = 0;
    std::map<std::string, std::string> caches;  // "L1d": "32K", "L2": "512K", "L3": "32M"
    uint64_t memory_total_bytes = 0;
    uint64_t swap_total_bytes = 0;
    std::vector<DiskInfo> disks;
    std::string os_name;
    std::string os_version;
    std::string kernel;
    // Client only.
    std::string perflab_version;
    uint64_t open_files_limit = 0;
    std::map<std::string, std::string> net_settings;  // net.core.somaxconn, ...
    // Server configuration notes (a JVM's command line and flags).
    std::string server_notes;

    // Same machine, same configuration: runs share one stored profile.
    std::string identity() const;
};

nlohmann::json to_json(const HardwareProfile& profile);
HardwareProfile profile_from_json(const nlohmann::json& json);

// Pure parsers over the text of /proc and /etc files, shared by the local and SSH probes.
void parse_cpuinfo(std::string_view text, HardwareProfile& out);
void parse_meminfo(std::string_view text, HardwareProfile& out);
void parse_os_release(std::string_view text, HardwareProfile& out);
// Where the disk `device` (sda, nvme0n1) or one of its partitions is first mounted, from the
// text of /proc/mounts; empty when it is not mounted.
std::string mount_for_device(std::string_view proc_mounts, const std::string& device);

// The machine PerfLab runs on, read from /proc, /sys, /etc/os-release and the mounts.
HardwareProfile local_hardware_profile();

}  // namespace perflab
