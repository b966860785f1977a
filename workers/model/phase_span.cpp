// SPDX-License-Identifier: MIT
#include "phase_span.h"

#include <algorithm>
#include <limits>

namespace perflab {

size_t phase_at(const std::vector<int64_t>& starts, int64_t t_ms) {
    const auto at = std::lower_bound(starts.begin(), starts.end(), t_ms);
    return at == starts.begin() ? 0 : size_t(at - starts.begin() - 1);
}

std::optional<std::pair<int64_t, int64_t>> phase_span(const RunSummary& s, size_t i) {
    if (i >= s.phases.size() || s.phases[i].totals.t_ms <= 0) return std::nullopt;
    const int64_t from = i == 0 ? std::numeric_limits<int64_t>::min() : s.phases[i].start_ms;
    const int64_t to =
        i + 1 < s.phases.size() ? s.phases[i + 1].start_ms : std::numeric_limits<int64_t>::max();
    return std::make_pair(from, to);
}

}  // namespace perflab
