// SPDX-License-Identifier: MIT
#pragma once

#include <cstdio>
#include <optional>

#include "model/observer.h"
#include "tick_line.h"

namespace perflab {

// Prints a run as the field's own tools do: one line per tick (TickLine), events as they happen.
class ConsoleObserver : public RunObserver {
  public:
    explicit ConsoleObserver(std::FILE* out) : out_(out) {}
    void on_start(const RunSpec& spec) override;
    void on_sample(const IntervalSample& sample) override;
    void on_event(const RunEvent& event) override;

  private:
    std::FILE* out_;
    std::optional<TickLine> line_;
};

}  // namespace perflab
