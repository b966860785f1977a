// SPDX-License-Identifier: MIT
#include "proc_stat_log.h"

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

double ProcStatLog::busy_pct(int64_t from_ms, int64_t to_ms, bool iowait_is_busy) {
    const CpuJiffies a = log_.at(from_ms).second, b = log_.at(to_ms).second;
    const double total = b.total - a.total;
    if (total <= 0) return std::numeric_limits<double>::quiet_NaN();
    const double idle = b.idle - a.idle + (iowait_is_busy ? 0 : b.iowait - a.iowait);
    return 100.0 * (total - idle) / total;
}

}  // namespace perflab::test
