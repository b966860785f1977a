// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace perflab {

// Jiffies from one `cpu` line of /proc/stat. Guest time is already inside user and nice.
struct CpuTimes {
    uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    uint64_t total() const { return user + nice + system + idle + iowait + irq + softirq + steal; }
};

struct NetCounters {
    uint64_t rx_bytes = 0, tx_bytes = 0;
};

struct DiskCounters {
    uint64_t sectors_read = 0, sectors_written = 0;  // 512-byte units, whatever the device
    uint64_t io_ms = 0;                              // time spent doing I/O
};

// The counters of one host at one moment: what two of these need to give a host sample.
struct ProcSnapshot {
    double uptime_s = 0;  // the host's own clock, so rates ignore network delays
    CpuTimes cpu;
    std::vector<CpuTimes> cores;
    uint64_t ctxt = 0;
    uint64_t procs_running = 0;
    double load1 = 0, load5 = 0, load15 = 0;
    std::map<std::string, uint64_t> meminfo;    // bytes, by /proc/meminfo name
    std::map<std::string, NetCounters> net;     // by interface, lo included
    std::map<std::string, DiskCounters> disks;  // whole disks only, never-used ones left out
    uint64_t tcp_retrans = 0;
};

// Pure parsers, one per /proc file; each fills its part of the snapshot and ignores what it
// does not know, so a newer kernel's extra columns change nothing.
void parse_uptime(std::string_view text, ProcSnapshot& out);
void parse_proc_stat(std::string_view text, ProcSnapshot& out);
void parse_loadavg(std::string_view text, ProcSnapshot& out);
void parse_meminfo_values(std::string_view text, ProcSnapshot& out);
void parse_net_dev(std::string_view text, ProcSnapshot& out);
void parse_diskstats(std::string_view text, ProcSnapshot& out);
void parse_net_snmp(std::string_view text, ProcSnapshot& out);

// The /proc files a host sample reads, in the order the remote loop prints them.
const std::vector<std::string>& host_proc_files();

// Splits what `head -n N FILE...` prints ("==> FILE <==" before each file) into file texts.
std::map<std::string, std::string> split_head_output(std::string_view text);

// A snapshot from the texts of host_proc_files(), keyed by path; missing files leave their
// part empty.
ProcSnapshot parse_snapshot(const std::map<std::string, std::string>& files);

}  // namespace perflab
