// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "command_stream.h"
#include "probe.h"

namespace perflab {

struct JvmTarget {
    std::optional<SshTarget> ssh;  // nullopt: this machine
    SshOptions ssh_options;
    long pid = 0;       // the JVM, or
    std::string match;  // a `pgrep -f` pattern naming it
};

// A JVM's garbage collector from `jstat -gcutil PID INTERVAL`: one jstat for the whole run
// (starting one per tick would cost half a core), its lines read as they come. Values of a
// "jvm" ProbeSample:
//
//   eden_pct, old_pct, metaspace_pct, s0_pct, s1_pct     occupancy, %
//   young_gc, full_gc                                    counts since the JVM started
//   young_gc_delta, full_gc_delta                        collections this tick
//   young_gc_ms, full_gc_ms                              time in them this tick
//   gc_time_s                                            total GC time since start
//
// A column jstat prints as "-" (no such space in this collector) is left out, never 0. Each
// full GC becomes a RunEvent of kind "gc". The JVM's command line (its flags) goes to the
// hardware profile's server notes. A `match` naming more than one JVM is refused.
class JvmProbe : public Probe {
  public:
    JvmProbe(JvmTarget target, int tick_ms);
    ~JvmProbe() override;
    std::string source() const override;
    std::string kind() const override { return "jvm"; }
    void open() override;  // throws ProbeError: no such process, no jstat, SSH refused
    ProbeReading poll() override;
    void close() override;
    const HardwareProfile* hardware_profile() const override { return &profile_; }
    long pid() const { return pid_; }

    // The shell script run locally or on the host.
    static std::string script(const JvmTarget& target, int tick_ms);

  private:
    void handle(const std::string& line, ProbeReading& reading);
    // The errors open() raises: several JVMs match (each "PID COMMAND LINE"), or jstat could
    // not read the process (its output).
    std::string ambiguous_match(const std::vector<std::string>& matches) const;
    std::string not_a_jvm(const std::vector<std::string>& jstat_output) const;

    JvmTarget target_;
    int tick_ms_;
    std::unique_ptr<CommandStream> stream_;
    std::vector<std::string> header_;
    std::map<std::string, double> last_;     // the latest line
    std::map<std::string, double> emitted_;  // the line the last sample ended with
    long pid_ = 0;
    HardwareProfile profile_;
};

// One jstat -gcutil line against its header; "-" columns are left out.
std::map<std::string, double> parse_jstat_line(const std::vector<std::string>& header,
                                               std::string_view line);
// The sample values from two jstat readings (see JvmProbe).
nlohmann::json jvm_values(const std::map<std::string, double>& before,
                          const std::map<std::string, double>& after);

}  // namespace perflab
