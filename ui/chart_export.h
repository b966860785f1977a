// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QCustomPlot;

namespace perflab {

// Writes `plot` at width×height to `path`; the format follows the suffix: .png, .pdf, .svg.
bool export_chart(QCustomPlot* plot, const QString& path, int width, int height, QString* error);

}  // namespace perflab
