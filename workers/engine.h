// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/agent_totals.h"
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
    // Open model, agent `share` of `shares`: this engine sends the phase's ops share,
    // share + shares, ... of the whole run's schedule.
    int share = 0;
    int shares = 1;
};

// A load generator for one kind of run. The controller calls every method but cancel() from
// its own thread; the engine runs its load on threads of its own.
//
// An operation belongs to the phase it was due in (open model) or started in (closed
// model), however late its reply comes: the next phase's schedule starts on time while the
// previous phase's replies are still arriving, and each phase's figures are collected apart.
class LoadEngine {
  public:
    virtual ~LoadEngine() = default;
    // Starts the engine's threads and opens its connections, idle until the first phase;
    // prefills if asked. Throws std::runtime_error when the run cannot start at all.
    virtual void start() = 0;
    // The previous phase ends: its ops due but not sent are dropped, its ops in flight still
    // count for it.
    virtual void begin_phase(const PhasePlan& plan) = 0;
    // Every worker has finished its share of the current phase (its ops, or its time) and
    // has nothing in flight.
    virtual bool phase_done() const = 0;
    // A phase that has ended has nothing left in flight: its figures are complete.
    virtual bool drained(int phase) const = 0;
    // Moves everything recorded for `phase` since the last call into `out` (counts, bytes,
    // histograms); times in it are relative to `origin`, the run's start.
    virtual void collect(IntervalSample& out, int phase, Clock::time_point origin) = 0;
    // Stops sending (ops due and not sent are dropped), waits for operations in flight up to
    // their timeout, joins the threads.
    virtual void stop() = 0;
    virtual uint64_t prefill_sets() const { return 0; }
    // Safe from any thread: abandon start-up work (a prefill) and stop waiting for operations
    // in flight, which count as `cancelled`; stop() then returns at once.
    virtual void cancel() {}
    // The first failure to reach a server ("127.0.0.1:1: connection refused"), empty if none:
    // a run where nothing was ever answered fails with it.
    virtual std::string first_connection_error() const { return {}; }
    // What the engine has to tell since the last call (an agent lost), for the controller to
    // stamp with the time and pass on.
    virtual std::vector<RunEvent> take_events() { return {}; }
    // The engine cannot go on as the spec wants (an agent lost, "on_agent_loss": "stop").
    virtual bool wants_stop() const { return false; }
    // Each agent's figures, once the last phase drained: empty unless agents sent the load.
    virtual std::vector<AgentTotals> agent_totals() const { return {}; }
    // How long before a search step begins its rate must be known: the time an order takes
    // to reach the agents.
    virtual Clock::duration step_lead() const { return {}; }
    // The moment start() was to return, when it was set in common with other processes (agents
    // and their controller): the run's clock counts from it, not from when start() did return,
    // so that every process's ticks and phases fall on one grid.
    virtual std::optional<Clock::time_point> common_start() const { return std::nullopt; }
};

// Engines the spec selects, given the spec with its ${NAME} references resolved (secrets.h);
// throws std::runtime_error for a kind this build cannot run, an environment variable not
// set, or a masked credential. Hand the controller and the store `spec`: it keeps the
// references.
std::unique_ptr<LoadEngine> make_engine(const RunSpec& spec);

// Connections a phase uses: its concurrency, else the spec's largest, else a default.
int phase_connections(const RunSpec& spec, const Phase& phase);

}  // namespace perflab
