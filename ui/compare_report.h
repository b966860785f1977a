// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <vector>

#include "run_compare.h"
#include "run_report.h"

namespace perflab {

// A comparison as a document: the runs, the key figures with deltas, the charts, the spec
// and machine differences, and the warning when the machines differ. The chart images are
// referenced by their paths relative to the report.
QString comparison_markdown(const Comparison& c, const std::vector<ReportChart>& images);
QString comparison_html(const Comparison& c, const std::vector<ReportChart>& images);

}  // namespace perflab
