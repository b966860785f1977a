// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include "proc_snapshot.h"

namespace perflab {

// The values of a "host" ProbeSample (local and SSH probes alike). Percentages are 0..100 of
// all CPUs together unless named per core; bytes are bytes; rates are per second over the
// interval between two snapshots, on the sampled host's own clock.
//
//   cpu_user, cpu_system, cpu_iowait, cpu_steal, cpu_idle   % of CPU time (user includes nice,
//                                                           system includes irq and softirq)
//   cpu_busy                                                100 - idle - iowait
//   cpuN_busy                                               per core, when asked for
//   load1, load5, load15, procs_running
//   mem_total, mem_used, mem_available, mem_cached          bytes; used = total - available
//   swap_used                                               bytes
//   net_rx_Bps, net_tx_Bps                                  every interface but lo
//   net.<if>.rx_Bps, net.<if>.tx_Bps                        each interface, lo included
//   disk.<dev>.read_Bps, disk.<dev>.write_Bps, disk.<dev>.util_pct
//   ctx_switches_ps, tcp_retrans_ps
//
// The local probe adds the load generator itself (PerfLab's own process):
//   self_cpu_pct   % of one core (200 = two cores busy)
//   self_rss       bytes
//   self_threads
nlohmann::json host_values(const ProcSnapshot& before, const ProcSnapshot& after, bool per_core);

// PerfLab's own process from /proc/self/stat, for the self_* values.
struct SelfCounters {
    uint64_t cpu_ticks = 0;  // utime + stime, in clock ticks
    uint64_t rss_pages = 0;
    uint64_t threads = 0;
};
SelfCounters parse_self_stat(std::string_view text);

}  // namespace perflab
