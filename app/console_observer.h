// SPDX-License-Identifier: MIT
#pragma once

#include <cstdio>
#include <optional>

#include "model/generator_watch.h"
#include "model/observer.h"
#include "tick_line.h"

namespace perflab {

// Prints a run as the field's own tools do: one line per tick (TickLine), events as they happen.
// With a GeneratorWatch (added to the run before this observer), a tick that raises or clears
// its warning is followed by a line saying so.
class ConsoleObserver : public RunObserver {
  public:
    explicit ConsoleObserver(std::FILE* out, const GeneratorWatch* generator = nullptr)
        : out_(out), generator_(generator) {}
    void on_start(const RunSpec& spec) override;
    void on_sample(const IntervalSample& sample) override;
    void on_event(const RunEvent& event) override;

  private:
    std::FILE* out_;
    const GeneratorWatch* generator_;
    std::optional<TickLine> line_;
};

}  // namespace perflab
