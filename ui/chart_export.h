// SPDX-License-Identifier: MIT
#pragma once

#include <QFont>
#include <QString>

class QByteArray;
class QCPPainter;
class QCustomPlot;
class QWidget;

namespace perflab {

// The layer of a plot's items that follow the mouse (a crosshair): exports leave it out.
inline const QString kPointerLayer = QStringLiteral("pointer");

// The font and the width an export's title is drawn in: a caller that puts more than a name in
// it chooses what is elided.
QFont chart_title_font(QCustomPlot* plot);
int chart_title_room(int width);

// Whether the plot draws any series point: an export of nothing is refused.
bool chart_has_data(QCustomPlot* plot);

// Writes `plot` at width×height to `path`; the format follows the suffix: .png, .pdf, .svg.
// `title` (the run's name) heads the image, elided to its width; a margin keeps the legend and
// labels off the edges, and what follows the mouse is left out. A plot with no point and an
// unknown suffix are refused with `error` set.
bool export_chart(QCustomPlot* plot, const QString& path, int width, int height, QString* error,
                  const QString& title = {});

// Draws `plot` on `painter` from its origin at width×height, dressed as export_chart dresses
// an image; on a PDF's painter, as vector graphics.
void draw_chart(QCustomPlot* plot, QCPPainter* painter, int width, int height,
                const QString& title);

// The image export_chart writes to a .png, as the file's bytes.
QByteArray chart_png(QCustomPlot* plot, int width, int height, const QString& title);

// Asks for a file and a size ("1600x1000"; both remembered in QSettings), then exports;
// an empty chart, a bad size or a failed write is shown in a message box.
void export_chart_dialog(QWidget* parent, QCustomPlot* plot, const QString& title = {});

}  // namespace perflab
