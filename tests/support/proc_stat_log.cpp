// SPDX-License-Identifier: MIT
#include "proc_stat_log.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

namespace perflab::test {

CpuJiffies proc_stat_cpu() {
    std::ifstream in("/proc/stat");
    std::string cpu;
    double user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    in >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
    // Guest time is inside user already.
    return {idle, iowait, user + nice + system + idle + iowait + irq + softirq + steal};
}

int64_t wall_ms_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

ProcStatLog::ProcStatLog()
    : thread_([this](std::stop_token stop) {
          while (!stop.stop_requested()) {
              const auto reading = proc_stat_cpu();
              {
                  std::lock_guard lock(mutex_);
                  readings_.push_back({wall_ms_now(), reading});
              }
              std::this_thread::sleep_for(std::chrono::milliseconds(20));
          }
      }) {}

CpuJiffies ProcStatLog::at(int64_t wall_ms) {
    std::lock_guard lock(mutex_);
    const auto nearest = std::min_element(
        readings_.begin(), readings_.end(), [wall_ms](const auto& a, const auto& b) {
            return std::abs(a.first - wall_ms) < std::abs(b.first - wall_ms);
        });
    return nearest == readings_.end() ? CpuJiffies{} : nearest->second;
}

double ProcStatLog::busy_pct(int64_t from_ms, int64_t to_ms, bool iowait_is_busy) {
    const CpuJiffies a = at(from_ms), b = at(to_ms);
    const double total = b.total - a.total;
    if (total <= 0) return std::numeric_limits<double>::quiet_NaN();
    const double idle = b.idle - a.idle + (iowait_is_busy ? 0 : b.iowait - a.iowait);
    return 100.0 * (total - idle) / total;
}

}  // namespace perflab::test
