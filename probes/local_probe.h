// SPDX-License-Identifier: MIT
#pragma once

#include "host_values.h"
#include "probe.h"

namespace perflab {

// The machine PerfLab runs on, from /proc, plus PerfLab's own process (self_* values) so a
// saturated load generator shows as such. `proc_root` lets tests point it elsewhere.
class LocalProbe : public Probe {
  public:
    explicit LocalProbe(bool per_core = false, std::string proc_root = "/proc");
    std::string source() const override { return "local"; }
    std::string kind() const override { return "host"; }
    void open() override;
    ProbeReading poll() override;

  private:
    ProcSnapshot read_snapshot() const;

    bool per_core_;
    std::string proc_root_;
    ProcSnapshot last_;
    SelfCounters last_self_;
};

}  // namespace perflab
