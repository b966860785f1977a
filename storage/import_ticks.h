// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>

#include "import_record.h"
#include "import_span.h"
#include "model/sample.h"

namespace perflab {

// Requests read from another tool's results, as one-second ticks on a run's clock, whatever
// order the file lists them in. The run starts at the whole second its first request was
// sent in; each request counts in the second it was sent in. Memory grows with the run's
// length, not the file's size: a second the file has moved past keeps its latencies encoded
// (a few hundred bytes) rather than as a live histogram (an address-space mapping each).
class ImportTicks {
  public:
    // A tool's transactions of one label (JMeter's Transaction Controller) over the whole
    // file: kept out of the requests, whose own rows the file has too.
    struct Transactions {
        uint64_t count = 0;
        uint64_t failed = 0;
        int64_t total_us = 0;
        int64_t max_us = 0;
    };

    explicit ImportTicks(int64_t max_span_s = kImportMaxSpanS) : span_(max_span_s) {}
    // Throws ImportError for a record sent at no plausible time or past the span allowed.
    // A transaction counts in its tick's transactions, never among its requests.
    void add(const ImportRecord& r);

    uint64_t requests() const { return requests_; }
    const std::map<std::string, Transactions>& transactions() const { return transactions_; }
    // Requests the tool passed whose status is outside 200-399 (JMeter's "Ignore status"):
    // successes, as the tool's verdict rules.
    uint64_t passed_off_status() const { return passed_off_status_; }
    int64_t start_ms() const { return first_s_ * 1000; }  // wall clock, ms since the epoch
    const std::set<std::string>& ops() const { return ops_; }
    // Hands f every second from the first to the last, in order, a second without requests
    // as an empty tick, each with the ops and transactions sent in it; one tick's histograms
    // alive at a time.
    void drain(const std::function<void(IntervalSample&&)>& f);

  private:
    struct FrozenOp {
        uint64_t count = 0;
        uint64_t errors = 0;
        std::string latency;  // Histogram::encode()
    };
    using FrozenOps = std::map<std::string, FrozenOp>;
    struct Frozen {
        IntervalSample counters;  // without ops and transactions
        FrozenOps ops;
        FrozenOps transactions;
    };
    static FrozenOps freeze(std::map<std::string, OpSample>&& ops);
    static std::map<std::string, OpSample> thaw(FrozenOps&& ops);
    static Frozen freeze(IntervalSample&& s);
    static IntervalSample thaw(Frozen&& f);
    IntervalSample& tick(int64_t second);

    ImportSpan span_;
    std::map<int64_t, IntervalSample> hot_;  // by second since the epoch: the newest few
    std::map<int64_t, Frozen> cold_;         // the others
    std::set<std::string> ops_;
    std::map<std::string, Transactions> transactions_;
    uint64_t requests_ = 0;
    bool any_ = false;  // a request or transaction was added
    uint64_t passed_off_status_ = 0;
    // A file records bytes in every request or in none: one without them leaves every tick's
    // unknown, a second without requests included.
    bool bytes_in_unknown_ = false;
    bool bytes_out_unknown_ = false;
    int64_t first_s_ = 0;
    int64_t newest_s_ = 0;
};

}  // namespace perflab
