// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include "reading_log.h"

namespace perflab::test {

// /proc/stat's first line in jiffies of all cpus: idle, iowait and all time.
struct CpuJiffies {
    double idle = 0, iowait = 0, total = 0;
};
CpuJiffies proc_stat_cpu();

// The machine's CPU over any window of a run, from /proc/stat read every 20 ms.
class ProcStatLog {
  public:
    // Busy % of all cpus from `from_ms` to `to_ms` (wall clock): all but idle, or all but idle
    // and iowait (a host probe's and nmon's cpu_busy).
    double busy_pct(int64_t from_ms, int64_t to_ms, bool iowait_is_busy);

  private:
    ReadingLog<CpuJiffies> log_{proc_stat_cpu};
};

}  // namespace perflab::test
