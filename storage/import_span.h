// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

namespace perflab {

// A results file longer than this is refused unless the user allows more (--max-span): one
// absurd timestamp beside a day of real ones would otherwise make years of empty ticks.
inline constexpr int64_t kImportMaxSpanS = 31 * 86400;

// The times an import has seen. A time before 2000 or over a day past now is no time a load
// tool wrote; a file whose times spread over more than the span allowed is refused too.
class ImportSpan {
  public:
    explicit ImportSpan(int64_t max_span_s = kImportMaxSpanS);
    // Throws ImportError naming `line` and `field` for a time (ms since the epoch) that is not
    // plausible or that stretches the span past its limit.
    void check(int64_t at_ms, int64_t line, const char* field);

  private:
    int64_t max_span_ms_;
    int64_t latest_ms_;  // now and a day
    int64_t first_ms_ = 0;
    int64_t last_ms_ = 0;
    bool any_ = false;
};

}  // namespace perflab
