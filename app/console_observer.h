// SPDX-License-Identifier: MIT
#pragma once

#include <cstdio>

#include "model/observer.h"

namespace perflab {

// Prints a run as the field's own tools do: one line per tick, events as they happen.
//   00:00:05 hit:97.21% get/s:478087 set/s:13328 in:3.93g out:7.42m p99:0.41ms err:0
class ConsoleObserver : public RunObserver {
  public:
    explicit ConsoleObserver(std::FILE* out) : out_(out) {}
    void on_start(const RunSpec& spec) override;
    void on_sample(const IntervalSample& sample) override;
    void on_event(const RunEvent& event) override;

  private:
    std::FILE* out_;
    RunKind kind_ = RunKind::cache;
};

std::string tick_line(RunKind kind, const IntervalSample& sample);

}  // namespace perflab
