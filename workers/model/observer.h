// SPDX-License-Identifier: MIT
#pragma once

#include "probe_sample.h"
#include "sample.h"
#include "spec.h"
#include "summary.h"

namespace perflab {

// Receives a run as it happens, on the controller's thread; probe samples and probe events
// ("gc", probe errors) arrive on the probes' threads: keep each call short (hand the
// value to your own thread or queue). Every method has a do-nothing default.
class RunObserver {
  public:
    virtual ~RunObserver() = default;
    virtual void on_start(const RunSpec& /*spec*/) {}
    // The engine is ready (connected, prefilled) and nothing is sent until the clock, which
    // starts when this returns: where the probes take the baseline the run's counts start from.
    virtual void on_ready() {}
    // The run's clock started: its t_ms 0 is this wall-clock time (ms since the epoch), which
    // is after a prefill or the agents' common start, not when on_start was called.
    virtual void on_clock(int64_t /*wall_ms*/) {}
    virtual void on_sample(const IntervalSample& /*sample*/) {}
    virtual void on_event(const RunEvent& /*event*/) {}
    // From the probes, on the probe runner's thread.
    virtual void on_probe_sample(const ProbeSample& /*sample*/) {}
    virtual void on_phase_end(const PhaseTotals& /*phase*/) {}
    virtual void on_end(const RunSummary& /*summary*/) {}
};

}  // namespace perflab
