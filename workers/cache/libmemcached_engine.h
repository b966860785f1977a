// SPDX-License-Identifier: MIT
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "engine.h"
#include "first_error.h"
#include "phase_board.h"
#include "phase_loads.h"

namespace perflab {

// The "libmemcached" cache driver: one thread and one memcached_st per connection, the way
// applications use the library, so its figures are what a libmemcached-based service sees.
// Nothing is shared between workers on the hot path.
class LibmemcachedEngine final : public LoadEngine {
  public:
    explicit LibmemcachedEngine(const RunSpec& spec);
    ~LibmemcachedEngine() override;

    void start() override;
    void begin_phase(const PhasePlan& plan) override;
    bool phase_done() const override { return board_.phase_done(); }
    bool drained(int phase) const override;
    void collect(IntervalSample& out, int phase, Clock::time_point origin) override;
    void stop() override;
    void cancel() override;
    uint64_t prefill_sets() const override { return prefill_sets_; }
    std::string first_connection_error() const override { return unreached_.text(); }

    class Worker;

  private:
    void prefill();

    RunSpec spec_;
    PhaseBoard board_;
    PhaseLoads loads_;
    std::vector<int> slot_loads_;  // per slot: the load its phase uses
    FirstError unreached_;
    std::vector<std::unique_ptr<Worker>> workers_;
    uint64_t prefill_sets_ = 0;
    std::atomic<bool> cancel_{false};
};

}  // namespace perflab
