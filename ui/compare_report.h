// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>

#include "run_compare.h"

namespace perflab {

// A chart image next to the comparison report, referenced by its file name.
struct ComparisonChart {
    QString title;
    QString file;
};

// A comparison as a document: the runs, the key figures with deltas, the charts, the spec
// and machine differences, and the warning when the machines differ.
QString comparison_markdown(const Comparison& c, const QList<ComparisonChart>& images);
QString comparison_html(const Comparison& c, const QList<ComparisonChart>& images);

}  // namespace perflab
