// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QCustomPlot;

namespace perflab {

class PdfReport;
class TimeChart;

// A chart's height in a report: four to a page, each tall enough for its legend's lines.
inline constexpr int kPdfPanelHeight = 240;

// `plot` as one block, headed by `title`, drawn as vector graphics without the crosshair.
void add_pdf_chart(PdfReport& report, QCustomPlot* plot, const QString& title, int height);

// Each panel of `chart` the user shows as a block of its own, headed by the panel's title and
// `name` (the run's), with its own time axis: a panel never parts from its axis across a page.
// The chart must outlive the report's write.
void add_pdf_panels(PdfReport& report, TimeChart& chart, const QString& name,
                    int height = kPdfPanelHeight);

}  // namespace perflab
