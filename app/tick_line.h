// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/sample.h"
#include "model/spec.h"

namespace perflab {

// The console's line for one tick, as the field's tools print it: each per-second count beside
// its running average since the current phase began (phases run at different rates, so an
// average across them would describe none), then the bytes the client received and sent.
//   00:00:05 hit:97.21% get/s:478087 (avg 478010) set/s:13328 (avg 13301) rx:3.93g tx:7.42m
//   p99:0.41ms err:0
// The hit rate shows only in ticks that had gets, and an op only if the workload sends it (a
// run of cache.commands shows each command's, "hset/s:1200 (avg 1190)"). The
// replies to a phase that came after the next one began have a line of their own:
//   00:00:05 phase 1 replies: req/s:50 ok:100.00% rx:30b tx:0b p99:302.10ms err:0
class TickLine {
  public:
    explicit TickLine(const RunSpec& spec);
    std::string next(const IntervalSample& sample);

  private:
    std::string rate(const std::string& label, const std::string& key, uint64_t count, double secs);

    RunKind kind_;
    bool gets_ = true;
    bool sets_ = true;
    bool mgets_ = false;  // gets go in batches: mget/s in place of get/s
    // cache.commands' op names: their rates alone.
    std::vector<std::string> commands_;
    int phase_ = -1;
    bool drain_ = false;
    int64_t phase_ms_ = 0;
    std::map<std::string, uint64_t> phase_counts_;
};

}  // namespace perflab
