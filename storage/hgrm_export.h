// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "hdr_encoding.h"
#include "model/histogram.h"
#include "model/summary.h"

namespace perflab {

// The percentile distribution in HdrHistogram's text layout (Value, Percentile, TotalCount,
// 1/(1-Percentile), then the #[Mean ...] footer), values in milliseconds as wrk2 prints them.
// `layout` is what the histogram's values can tell apart: ours, or a coarser source's (an
// imported memtier run's 2 significant digits), whose bucket and sub-bucket counts the
// footer then gives rather than claiming ours.
std::string hgrm_text(const Histogram& histogram, const hdr::Layout& layout = {});
// The layout an imported run's stored spec records for its histograms ("imported_from"), or
// ours.
hdr::Layout hgrm_layout(const nlohmann::json& spec);
// What `export --format hgrm` writes: a cache run's histogram per op it sent ("get", "set"),
// since a get's and a set's latencies are different distributions; an HTTP run's every
// request merged, under the name "". In the open model, each one's service time follows
// ("get.service", "set.service"; "service" for HTTP).
std::vector<std::pair<std::string, Histogram>> hgrm_histograms(const RunSummary& summary);

}  // namespace perflab
