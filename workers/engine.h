// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "model/sample.h"
#include "model/spec.h"

namespace perflab {

using Clock = std::chrono::steady_clock;

// What the controller asks of an engine for one phase.
struct PhasePlan {
    int index = 0;
    Phase phase;
    Clock::time_point start;  // the phase's first op is due then
    int connections = 1;      // connections (closed model) or senders (open model) in use
};

// A load generator for one kind of run. The controller calls every method from its own
// thread; the engine runs its load on threads of its own.
class LoadEngine {
  public:
    virtual ~LoadEngine() = default;
    // Starts the engine's threads, idle until the first phase; prefills if asked. Throws
    // std::runtime_error when the run cannot start at all.
    virtual void start() = 0;
    virtual void begin_phase(const PhasePlan& plan) = 0;
    // Every worker has finished its share of the current phase (its ops, or its time) and
    // has nothing in flight.
    virtual bool phase_done() const = 0;
    // Moves everything recorded since the last call into `out` (counts, bytes, histograms).
    virtual void collect(IntervalSample& out) = 0;
    // Stops sending, waits for operations in flight, joins the threads.
    virtual void stop() = 0;
    virtual uint64_t prefill_sets() const { return 0; }
    // After stop(): seconds from the last send to the last reply (vegeta's "wait").
    virtual double wait_s() const { return 0; }
    // Safe from any thread: abandon start-up work (a prefill) so a stop is quick.
    virtual void cancel() noexcept {}
};

// Engines the spec selects, given the spec with its ${NAME} references resolved (secrets.h);
// throws std::runtime_error for a kind this build cannot run, an environment variable not
// set, or a masked credential. Hand the controller and the store `spec`: it keeps the
// references.
std::unique_ptr<LoadEngine> make_engine(const RunSpec& spec);

// Connections a phase uses: its concurrency, else the spec's largest, else a default.
int phase_connections(const RunSpec& spec, const Phase& phase);

}  // namespace perflab
