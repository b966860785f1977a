// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace perflab::test {

// /proc/stat's first line in jiffies of all cpus: idle, iowait and all time.
struct CpuJiffies {
    double idle = 0, iowait = 0, total = 0;
};
CpuJiffies proc_stat_cpu();

int64_t wall_ms_now();

// proc_stat_cpu() every 20 ms with the wall clock, while it lives: the machine's own reading
// over any window of a run, not over the life of the process that runs it (whose start and
// end, long under a sanitizer or on a loaded machine, a probe does not see).
class ProcStatLog {
  public:
    ProcStatLog();
    // The reading taken nearest to `wall_ms` (zeros when there is none).
    CpuJiffies at(int64_t wall_ms);
    // Busy % of all cpus from `from_ms` to `to_ms` (wall clock): all but idle, or all but idle
    // and iowait (a host probe's and nmon's cpu_busy).
    double busy_pct(int64_t from_ms, int64_t to_ms, bool iowait_is_busy);

  private:
    std::mutex mutex_;
    std::vector<std::pair<int64_t, CpuJiffies>> readings_;
    std::jthread thread_;
};

}  // namespace perflab::test
