// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <istream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace perflab {

// A host's capture by nmon (`nmon -F FILE -s SECONDS -c COUNT`): per snapshot its wall time
// and the values of its sections in a host probe's keys (probes/host_values.h), so the
// charts, reports and compare read it as they read a live probe:
//   CPU_ALL    cpu_user, cpu_system, cpu_iowait, cpu_idle, cpu_steal, cpu_busy (100 - idle - wait)
//   CPUnnn     cpuN_busy (CPU001 is cpu0)
//   MEM        mem_total, mem_cached, swap_used, and mem_used as total - free - buffers -
//              cached (nmon 16 has no MemAvailable)
//   PROC       procs_running, ctx_switches_ps
//   NET        net.<if>.rx_Bps, net.<if>.tx_Bps, and net_rx_Bps, net_tx_Bps without lo
//   DISKBUSY, DISKREAD, DISKWRITE   disk.<dev>.util_pct, .read_Bps, .write_Bps
//   TOP        top.<command>.cpu_pct: the command's processes' CPU, % of one core
// Other sections are left out. A snapshot's values are nmon's rates over the interval that
// ends at its ZZZZ time, which is the host's local time, read in this process's time zone
// (TZ).
struct NmonCapture {
    std::string host;
    int interval_s = 0;
    struct Snapshot {
        int64_t wall_ms = 0;  // ms since the epoch
        nlohmann::json values = nlohmann::json::object();
    };
    std::vector<Snapshot> snapshots;  // in time order
};

// Throws ImportError naming the line for what is not an nmon capture or is cut.
NmonCapture read_nmon(std::istream& in);

// Adds a capture to stored run `run` as host samples of `source` ("nmon HOST" when empty) on
// the run's clock, with a note event saying so. Snapshots outside the run (one stamped at or
// before its start covers time before it; a second of slack after its end) are left out; none
// inside is bad input (ImportError naming both spans).
struct HostImport {
    std::string source;
    int64_t added = 0;
    int64_t outside = 0;
};
HostImport import_host_capture(const std::string& db_path, int64_t run, const std::string& file,
                               const std::string& source);

}  // namespace perflab
