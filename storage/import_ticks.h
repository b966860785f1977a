// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "import_record.h"
#include "model/sample.h"

namespace perflab {

// Requests read from another tool's results, as one-second ticks on a run's clock, whatever
// order the file lists them in. The run starts at the whole second its first request was
// sent in; each request counts in the second it was sent in. Memory grows with the run's
// length, not the file's size.
class ImportTicks {
  public:
    void add(const ImportRecord& r);

    uint64_t requests() const { return requests_; }
    int64_t start_ms() const { return first_s_ * 1000; }  // wall clock, ms since the epoch
    // Every second from the first to the last, a second without requests as an empty tick;
    // every op appears in every tick.
    std::vector<IntervalSample> take();

  private:
    std::map<int64_t, IntervalSample> ticks_;  // by second since the epoch
    std::set<std::string> ops_;
    uint64_t requests_ = 0;
    int64_t first_s_ = 0;
};

}  // namespace perflab
