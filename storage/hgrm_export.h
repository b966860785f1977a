// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/histogram.h"
#include "model/summary.h"

namespace perflab {

// The percentile distribution in HdrHistogram's text layout (Value, Percentile, TotalCount,
// 1/(1-Percentile), then the #[Mean ...] footer), values in milliseconds as wrk2 prints them.
std::string hgrm_text(const Histogram& histogram);
// What `export --format hgrm` writes: a cache run's histogram per op it sent ("get", "set"),
// since a get's and a set's latencies are different distributions; an HTTP run's every
// request merged, under the name "". In the open model, each one's service time follows
// ("get.service", "set.service"; "service" for HTTP).
std::vector<std::pair<std::string, Histogram>> hgrm_histograms(const RunSummary& summary);

}  // namespace perflab
