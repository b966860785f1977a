// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QCustomPlot;
class QWidget;

namespace perflab {

// Writes `plot` at width×height to `path`; the format follows the suffix: .png, .pdf, .svg.
bool export_chart(QCustomPlot* plot, const QString& path, int width, int height, QString* error);

// Asks for a file and a size ("1600x1000"; both remembered in QSettings), then exports;
// a bad size or a failed write is shown in a message box.
void export_chart_dialog(QWidget* parent, QCustomPlot* plot);

}  // namespace perflab
