// SPDX-License-Identifier: MIT
#include "import_span.h"

#include <algorithm>
#include <chrono>
#include <string>

#include "import_record.h"
#include "model/format.h"
#include "run_report.h"

namespace perflab {

namespace {

constexpr int64_t kEarliestMs = 946'684'800'000;  // 2000-01-01 00:00:00 UTC
constexpr int64_t kDayMs = 86'400'000;

std::string days(int64_t ms) {
    return format_fixed(double(ms) / double(kDayMs), 1) + " days";
}

}  // namespace

ImportSpan::ImportSpan(int64_t max_span_s)
    : max_span_ms_(max_span_s * 1000),
      latest_ms_(std::chrono::duration_cast<std::chrono::milliseconds>(
                     std::chrono::system_clock::now().time_since_epoch())
                     .count() +
                 kDayMs) {}

void ImportSpan::check(int64_t at_ms, int64_t line, const char* field) {
    if (at_ms < kEarliestMs || at_ms > latest_ms_)
        throw ImportError(line, field,
                          std::to_string(at_ms) + " ms since the epoch is not a plausible time " +
                              "(before 2000 or after tomorrow)");
    const int64_t first = any_ ? std::min(first_ms_, at_ms) : at_ms;
    const int64_t last = any_ ? std::max(last_ms_, at_ms) : at_ms;
    if (last - first > max_span_ms_)
        throw ImportError(line, field,
                          format_wall(at_ms) + " makes the file span " + days(last - first) +
                              " (from " + format_wall(first) + " to " + format_wall(last) +
                              "), over the " + days(max_span_ms_) +
                              " allowed; give --max-span to import more");
    first_ms_ = first;
    last_ms_ = last;
    any_ = true;
}

}  // namespace perflab
