// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "model/sample.h"
#include "model/summary.h"
#include "sqlite.h"

namespace perflab {

// Writes a run's rows with statements prepared once per connection.
class RunRows {
  public:
    explicit RunRows(Connection& db);
    void sample(int64_t run, int64_t seq, const IntervalSample& s);
    void event(int64_t run, const RunEvent& e);
    void phase(int64_t run, const PhaseTotals& p);
    // The final histograms (per op, per phase and overall, phase -1), the summary and the
    // key figures; the status and end time.
    void finish(int64_t run, const RunSummary& summary, int64_t ended_at_ms);

  private:
    Connection& db_;
    Statement sample_;
    Statement op_;
    Statement transaction_;
    Statement event_;
    Statement phase_;
    Statement histogram_;
};

// A run's ticks whose middle lies in (from_ms, to_ms], in order, each handed to f as soon as
// it is read: summing an hour costs the histograms of one tick, not of 3600. By the middle,
// not the end: ticks end a few ms after the second, and a tick ending just after from_ms
// is mostly before it (a 10-s window would span 11 s). A negative from_ms takes every tick.
void for_each_sample(Connection& db, int64_t run, int64_t from_ms, int64_t to_ms,
                     const std::function<void(IntervalSample&&)>& f);
std::vector<IntervalSample> read_samples(Connection& db, int64_t run, int64_t from_ms = -1,
                                         int64_t to_ms = std::numeric_limits<int64_t>::max());

// The transactions (IntervalSample::transactions) of a run's ticks whose middle lies in
// (from_ms, to_ms], as for_each_sample takes them, summed per label.
std::map<std::string, OpSample> read_transaction_totals(Connection& db, int64_t run,
                                                        int64_t from_ms, int64_t to_ms);

// A run's ticks summed per phase in SQL (one IntervalSample per phase, without histograms):
// the counters of a whole run without building one sample per tick.
std::vector<IntervalSample> read_phase_sums(Connection& db, int64_t run);

// What the history lists for a run: the overall figures of figures.h, kept in the runs row.
struct KeyFigures {
    double duration_s = 0;
    uint64_t ops = 0;  // requests: completed, failed ones included
    uint64_t errors = 0;
    double rate = 0;        // sent per second
    double throughput = 0;  // successful per second
    double success = 0;     // 0..1
    double error_rate = 0;  // 0..1
    int64_t p99_us = 0;     // every op merged
    double hit_rate = -1;   // cache: 0..1; -1 for HTTP runs and runs without gets
};
KeyFigures key_figures(const RunSummary& summary);

// Bumped when the definition of a key figure changes: runs stored with an older one have
// their figures computed again (RunStore does it when it opens the database).
constexpr int kFiguresVersion = 1;
void update_key_figures(Connection& db, int64_t run, const KeyFigures& figures);

}  // namespace perflab
