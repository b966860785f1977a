// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "model/histogram.h"
#include "model/observer.h"
#include "model/slo.h"

namespace perflab {

// What a run has done so far, as Prometheus counters, gauges and histograms in the text
// exposition format (version 0.0.4), for `run --metrics-listen`: Grafana and Prometheus see a
// run as k6's or JMeter's Backend Listener's users see theirs.
//
// Counters per op and phase (requests, errors), per phase (sent, late sends, dropped, hits,
// misses, bytes), the latency per op as a histogram of cumulative buckets in seconds, and
// gauges for the planned rate, connections, the phase, the SLO window checks and each agent.
// Every metric name is in kMetricNames, so a dashboard can be held to it.
class LiveMetrics : public RunObserver {
  public:
    // `slo_checks` (may be empty): the SLO's window checks as they stand, asked at each tick
    // (on the run's thread, while its controller lives), shown as of the last.
    explicit LiveMetrics(std::function<std::vector<SloCheck>()> slo_checks = {});

    void on_start(const RunSpec& spec) override;
    void on_sample(const IntervalSample& sample) override;
    void on_end(const RunSummary& summary) override;

    // The exposition as a scrape gets it; from any thread.
    std::string exposition() const;

    // The latency histogram's upper bounds, in seconds (+Inf follows them).
    static const std::vector<double>& latency_bounds_s();
    static const std::vector<std::string>& metric_names();

  private:
    struct OpTotals {
        uint64_t requests = 0, errors = 0;
    };
    struct PhaseCounts {
        uint64_t sent = 0, late = 0, dropped = 0, hits = 0, misses = 0;
        uint64_t bytes_in = 0, bytes_out = 0;
    };
    struct AgentState {
        uint64_t ops = 0;
        bool lost = false, behind = false;
    };

    std::function<std::vector<SloCheck>()> slo_checks_;
    mutable std::mutex mutex_;
    std::string name_, kind_;
    std::map<std::pair<std::string, int>, OpTotals> ops_;  // (op, phase)
    std::map<int, PhaseCounts> phases_;
    std::map<std::string, Histogram> latency_;  // per op, the whole run
    std::map<std::string, AgentState> agents_;
    std::vector<SloCheck> checks_;
    double planned_rate_ = 0;
    int connections_ = 0;
    int phase_ = 0;
    bool running_ = false;
};

}  // namespace perflab
