// SPDX-License-Identifier: MIT
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "model/probe_sample.h"
#include "model/sample.h"
#include "remote/hardware_profile.h"
#include "remote/host_error.h"

namespace perflab {

// A probe that cannot start: a bad target, an unreachable server, a refused key. A probe's
// failure is its host's, so the SSH session's errors are caught as ProbeErrors too.
using ProbeError = HostError;

// What one poll produced. t_ms is left to the runner, which owns the run's clock.
struct ProbeReading {
    bool ready = false;  // false: nothing to report this tick (a first baseline, no new data)
    bool gap = false;    // the probe could not sample (connection lost): no values
    nlohmann::json values = nlohmann::json::object();
    std::vector<RunEvent> events;  // t_ms filled in by the runner as well
    // The moment the values describe, where the probe knows it better than the poll's start:
    // a rate over a scrape that took long must be stamped where its interval ends, or the
    // series integrated over its own times is not the counter's change.
    std::optional<std::chrono::steady_clock::time_point> taken_at;
};

// Where a round trip that began at `from` and ended now read the server's counters, give or
// take half of it: the stamp of a sample whose rates end there.
inline std::chrono::steady_clock::time_point round_trip_middle(
    std::chrono::steady_clock::time_point from) {
    return from + (std::chrono::steady_clock::now() - from) / 2;
}

// One source of samples. open() and poll() are called on one thread, never at once; poll()
// may block for a while (a network round trip) but returns within its own timeouts.
class Probe {
  public:
    virtual ~Probe() = default;
    virtual std::string source() const = 0;  // "local", "root@db1:22", "memcached 10.0.0.5:11211"
    virtual std::string kind() const = 0;    // "host", "memcached", "jvm"
    // Connects and takes a baseline; throws ProbeError when the target is unusable.
    virtual void open() = 0;
    virtual ProbeReading poll() = 0;
    // Releases the target (closes channels, ends remote loops); poll() is not called again.
    virtual void close() {}
    // The machine (and server notes) this probe read in open(), if it reads one.
    virtual const HardwareProfile* hardware_profile() const { return nullptr; }
};

}  // namespace perflab
