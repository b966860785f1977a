// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "histogram.h"

namespace perflab {

// One kind of operation (cache: "get", "set"; http: a target) over some interval.
struct OpSample {
    uint64_t count = 0;   // completed operations, failed ones included
    uint64_t errors = 0;  // of which failed
    Histogram latency;    // µs; in the open model measured from the intended start
    // Open model: µs from the actual send (empty in the closed model, where it is `latency`).
    // Beside `latency`, it shows the queueing the generator itself added.
    Histogram service;
    // HTTP: requests whose response failed one or more of the target's checks (counted in
    // `errors` too), and the failures per check ("status", "body_contains", ...).
    uint64_t check_failures = 0;
    std::map<std::string, uint64_t> checks_failed;

    void merge(const OpSample& other);
};

// One agent's part of a merged tick: what its tile in the live view shows.
struct AgentTick {
    std::string host;  // user@host:port, or "local"
    uint64_t ops = 0;
    uint64_t errors = 0;
    uint64_t late = 0;
    double cpu_pct = -1;  // its process's CPU in its tick, % of its host's cores; -1: unknown
    bool behind = false;  // its tick came after the grace period
    bool lost = false;
};

// Redis Cluster: what one node answered in a tick, as its own INFO counts it. `calls` per op:
// the replies other than a redirection (commandstats' calls; each MGET a multi-get was split
// into by slot is one); `errors`: how many of those were error replies; hits and misses
// its keyspace_hits and keyspace_misses for the run's lookups; moved and asked the redirections
// it replied (commandstats' rejected_calls).
struct NodeTick {
    std::map<std::string, uint64_t> calls;
    uint64_t errors = 0;
    uint64_t hits = 0;
    uint64_t misses = 0;
    uint64_t moved = 0;
    uint64_t asked = 0;

    void merge(const NodeTick& other);
    uint64_t total_calls() const;
};

// Everything the engine saw in one tick, merged over all its threads. Values cross threads
// whole, once per tick.
struct IntervalSample {
    int64_t t_ms = 0;         // end of the interval, ms since the run started (steady clock)
    int64_t interval_ms = 0;  // length; a phase change cuts a tick short
    int phase = 0;            // index into the spec's phases
    double planned_rate = 0;  // open model: planned ops/s over the interval; 0 when closed
    int connections = 0;      // connections in use at the end of the interval
    // A phase's drain: its replies that came after its end, while the next phase's ticks (or
    // the run's end) went on. Counted in the phase's figures; no tick of the run's timeline.
    bool drain = false;
    std::map<std::string, OpSample> ops;
    uint64_t hits = 0;
    uint64_t misses = 0;
    uint64_t bytes_in = 0;   // value (cache) or response (http) bytes received
    uint64_t bytes_out = 0;  // value (cache) or request (http) bytes sent
    // Whether they were counted: another tool's file may not record them (an HdrHistogram log,
    // a JTL without "bytes" or "sentBytes", memtier before 2.1). Unknown is null or "-" in
    // every output, never 0; merged with a tick that did not count them, a sum is unknown too.
    bool bytes_in_known = true;
    bool bytes_out_known = true;
    uint64_t sent = 0;  // operations started
    uint64_t late = 0;  // open model: operations started over 1 ms after their time
    // Open model: operations due in the phase that its end (or a stop) found unsent. With
    // them, ok + errors + dropped over a phase equals the ops it planned.
    uint64_t dropped = 0;
    // Redis Cluster: replies that sent an op on to another node, MOVED (the slot had moved)
    // and ASK (it was moving). The op itself counts once, timed from its first send.
    uint64_t moved = 0;
    uint64_t asked = 0;
    // Redis Cluster: each node's part, by host:port (the address the cluster gave for it).
    std::map<std::string, NodeTick> nodes;
    // When the operations counted here were first and last sent, and the last one ended, in
    // µs since the run started (vegeta's attack and wait); valid when sent, resp. any op, > 0.
    int64_t first_send_us = 0;
    int64_t last_send_us = 0;
    int64_t last_reply_us = 0;
    std::map<std::string, uint64_t> errors;  // failures by kind or text
    std::map<int, uint64_t> status_codes;    // http
    // With agents: each one's part of this tick, set where they were merged (merge() leaves it).
    std::vector<AgentTick> agents;
    // Per label, another tool's transactions whose requests the ops count already (JMeter's
    // Transaction Controller, imported): never requests. merge() leaves it; reports sum it.
    std::map<std::string, OpSample> transactions;

    // Adds other's counts; t_ms becomes the later end, interval_ms the sum.
    void merge(const IntervalSample& other);
    // Counts n sends, the first and last at these µs since the run started.
    void add_sends(uint64_t n, int64_t first_us, int64_t last_us);
    void add_reply_time(int64_t us) { last_reply_us = std::max(last_reply_us, us); }

    uint64_t total_ops() const;
    uint64_t total_errors() const;
    uint64_t total_check_failures() const;
    std::map<std::string, uint64_t> checks_failed() const;  // per check, every op summed
    Histogram latency() const;                              // every op merged
    Histogram service() const;  // every op's service time merged; empty in the closed model
    double seconds() const { return double(interval_ms) / 1000.0; }
    double hit_rate() const;  // 0..1, 0 when there were no gets
    double rate(const std::string& op) const;
};

// A moment on the run's timeline: a phase change, a burst of errors, a full GC.
struct RunEvent {
    int64_t t_ms = 0;
    std::string kind;  // "phase", "error", "gc", "stop"
    std::string text;
};

}  // namespace perflab
