// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command_stream.h"
#include "probe.h"

namespace perflab {

struct ProcessTarget {
    std::optional<SshTarget> ssh;  // nullopt: this machine
    SshOptions ssh_options;
    long pid = 0;       // the process, or
    std::string match;  // a `pgrep -f` pattern naming it
    int top = 5;        // its hottest threads sampled by name
};

// One reading of /proc/PID as the far side's loop prints it each tick.
struct ProcessReading {
    double uptime_s = 0;     // /proc/uptime: the clock the deltas divide by
    double utime_ticks = 0;  // /proc/PID/stat, in clock ticks
    double stime_ticks = 0;
    std::optional<double> rss_bytes;  // /proc/PID/status VmRSS
    std::optional<double> threads;    // Threads
    // Summed over /proc/PID/task/*/status: the process's own status counts its first thread's.
    std::optional<double> ctx_voluntary;
    std::optional<double> ctx_involuntary;
    std::optional<double> open_files;  // entries of /proc/PID/fd (none: not readable)
    struct Thread {
        std::string comm;
        double cpu_ticks = 0;  // utime + stime
    };
    std::map<long, Thread> tasks;  // by tid
};

// A process and its hottest threads, from one small shell loop over /proc (here, or on a host
// over SSH). Values of a "process" ProbeSample (CPU as % of one core, rates per second):
//
//   pid, cpu_user_pct, cpu_system_pct, rss, threads, open_files,
//   ctx_voluntary_ps, ctx_involuntary_ps, thread.<name>.cpu_pct (the top N threads)
//
// A thread's name is its comm, or for a JVM the name `jcmd PID Thread.print` gives its nid;
// the loop asks jcmd again when a thread it has not named appears, at most every 5 s. A figure
// /proc did not give is left out, never 0. A `match` naming more than one process is refused.
// Context switches are the live threads' sum: a thread that exits takes its count with it, so
// such an interval can read low (never below 0).
class ProcessProbe : public Probe {
  public:
    ProcessProbe(ProcessTarget target, int tick_ms);
    ~ProcessProbe() override;
    std::string source() const override;
    std::string kind() const override { return "process"; }
    void open() override;  // throws ProbeError: no such process, several match, SSH refused
    ProbeReading poll() override;
    void close() override;
    long pid() const { return pid_; }

    // The shell script run locally or on the host.
    static std::string script(const ProcessTarget& target, int tick_ms);

  private:
    // Takes one line of the loop's output; true when it completed a reading.
    bool handle(const std::string& line);

    ProcessTarget target_;
    int tick_ms_;
    std::unique_ptr<CommandStream> stream_;
    long pid_ = 0;
    double hz_ = 100;
    ProcessReading building_;
    std::optional<ProcessReading> last_;      // the latest complete reading
    std::optional<ProcessReading> emitted_;   // the reading the last sample ended with
    std::map<long, std::string> java_names_;  // tid → the JVM's thread name
};

// The figures of one /proc/PID/stat line: utime, stime (fields 14, 15) and the comm between
// its parentheses; nullopt for a line that is not one.
struct ProcStat {
    long pid = 0;
    std::string comm;
    double utime = 0, stime = 0;
};
std::optional<ProcStat> parse_proc_stat(std::string_view line);

// `"name" #12 ... nid=0x1a2b ...` from jcmd Thread.print: the tid (hex in Java 17, decimal
// from Java 19) and the name.
std::optional<std::pair<long, std::string>> parse_jcmd_thread(std::string_view line);

// The sample values between two readings (see ProcessProbe).
nlohmann::json process_values(const ProcessReading& before, const ProcessReading& after, double hz,
                              int top, const std::map<long, std::string>& names);

}  // namespace perflab
