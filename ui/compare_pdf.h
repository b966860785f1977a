// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include "run_compare.h"

class QCustomPlot;

namespace perflab {

class TimeChart;

// A comparison as an A4 PDF (pdf_report.h): the runs and the warning, the key figures, each
// panel of `overTime` and the percentile chart as vector graphics headed by `runs` (the runs'
// labels), then the spec and machine differences.
bool write_comparison_pdf(const Comparison& c, TimeChart& overTime, QCustomPlot* percentiles,
                          const QString& runs, const QString& path, QString* error);

}  // namespace perflab
