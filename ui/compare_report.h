// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <vector>

#include "run_compare.h"
#include "run_report.h"

namespace perflab {

// A comparison as a document: the runs, the key figures with deltas, the charts, the spec
// and machine differences, and the warning when the machines differ. The chart images are
// referenced by their paths: relative to the report, or data: URIs.
QString comparison_markdown(const Comparison& c, const std::vector<ReportChart>& images);
QString comparison_html(const Comparison& c, const std::vector<ReportChart>& images);

// comparison_html in parts that stand on their own, for the PDF to lay out one by one.
struct ComparisonHtml {
    QString style;  // the CSS the parts are written for
    QString runs;   // the heading, the runs, the warning when the machines differ
    QString figures;
    QString specDifferences, machineDifferences;
};
ComparisonHtml comparison_html_parts(const Comparison& c);

}  // namespace perflab
