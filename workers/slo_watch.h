// SPDX-License-Identifier: MIT
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model/observer.h"
#include "model/old_gen.h"
#include "model/slo.h"

namespace perflab {

// Holds a run to its spec's SLO: live, over a sliding window of the last slo.window_s of
// ticks (a breach becomes an event, and with slo.abort stops the run), and at its end, per
// phase and for the whole run. Counts the full GCs the run's JVM probes see, per phase.
class SloWatch : public RunObserver {
  public:
    using Emit = std::function<void(const RunEvent&)>;
    SloWatch(const RunSpec& spec, Emit emit, std::function<void()> stop);
    // The JVM probes' old generation, for a search's steps and its settling between them.
    const OldGenTrack& old_gen() const { return old_gen_; }
    // How many JVM probes delivered a sample stamped after t_ms (a gap counts: nothing more
    // is to come for that tick).
    int jvms_past(int64_t t_ms) const;

    // From the controller's thread.
    void on_sample(const IntervalSample& sample) override;
    void phase_began(int index, int64_t t_ms);
    // From the probes' thread.
    void on_probe_sample(const ProbeSample& sample) override;

    // Every phase's and the run's checks; a run that slo.abort stopped fails with the window
    // checks that stopped it, whatever its totals say.
    SloVerdict verdict(const RunSummary& summary) const;
    // Full GCs the JVM probes saw in a phase so far; none without a JVM probe.
    std::optional<uint64_t> full_gcs(int phase) const;
    // The live window's checks as of the last tick (for a view that shows them).
    std::vector<SloCheck> window_checks() const;

  private:
    void judge_window(int64_t now_ms);

    const RunSpec& spec_;
    const SloSpec slo_;
    Emit emit_;
    std::function<void()> stop_;
    OldGenTrack old_gen_;
    std::map<std::string, int64_t> jvm_last_ms_;  // per JVM probe, its latest sample's stamp
    int64_t window_ms_;
    int phase_ = 0;
    std::deque<IntervalSample> window_;
    std::set<std::string> breached_;  // check names failing in the window now
    bool stopping_ = false;
    mutable std::mutex mutex_;  // guards what the probes' thread writes, and window_checks_
    std::vector<int64_t> phase_starts_ms_;
    std::vector<uint64_t> phase_gcs_;
    bool saw_jvm_ = false;
    std::deque<std::pair<int64_t, uint64_t>> window_gcs_;  // (t_ms, full GCs)
    std::vector<SloCheck> window_checks_;
    std::vector<SloCheck> stopped_by_;  // the window's failing checks when slo.abort stopped it
};

}  // namespace perflab
