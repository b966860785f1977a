// SPDX-License-Identifier: MIT
#pragma once

#include <qcustomplot.h>

namespace perflab {

// Qt's rasterizer keeps a sorted list of cells per scanline, so one polygon whose noisy top
// edge crosses a scanline hundreds of times fills in time quadratic in its points: three CPU
// areas of an hour's points took 110 ms a redraw. Strips of a few dozen points keep every
// scanline's list short. The fill is not antialiased so that neighbouring strips meet without
// a seam; the line drawn over it is.
class AreaGraph : public QCPGraph {
  public:
    using QCPGraph::QCPGraph;

  protected:
    void drawFill(QCPPainter* painter, QVector<QPointF>* lines) const override;
};

// A line that stands out (the total against its plan) without a wide pen: Qt strokes a pen
// wider than 1 px as a polygon, joins and all, which made one such line of an hour's points
// 40 ms of a 60 ms repaint. On screen it is two 1-px lines a pixel apart, Qt's fast cosmetic
// path; in a vector export (PDF, SVG) the one 2-px line it stands for.
class BoldLineGraph : public QCPGraph {
  public:
    using QCPGraph::QCPGraph;

  protected:
    void drawLinePlot(QCPPainter* painter, const QVector<QPointF>& lines) const override;
};

// A legend entry that measures its text once per name and font: QCP shapes every entry's text
// at every layout, and again when the legend's columns are fitted, a fifth of a live replot
// with a dozen panels' legends.
class LegendEntry : public QCPPlottableLegendItem {
  public:
    using QCPPlottableLegendItem::QCPPlottableLegendItem;

  protected:
    QSize minimumOuterSizeHint() const override;

  private:
    struct Measured {
        QString name;
        QFont font;
        QSize icon;
        int padding = 0;
        QMargins margins;
        bool operator==(const Measured&) const = default;
    };
    mutable Measured measured_;
    mutable QSize size_;
};

// A plot shown before its first layout gets a resize event of its empty size first, and
// QCustomPlot replots on every resize: into an empty paint buffer, which QPainter refuses with
// a warning. Empty, this one only takes the size; the layout's resize that follows replots.
// It also takes its colours from its palette, as the desktop's theme (light or dark) gives it:
// background, axes, grid, legends and titles, again when the palette changes; a chart that
// adds axes or legends after it is shown calls followPalette for them.
// A legend entry's text: the palette's, faded for a series the user hid.
QColor legend_text_color(const QPalette& palette, bool shown);

class QuietPlot : public QCustomPlot {
  public:
    using QCustomPlot::QCustomPlot;
    void followPalette();

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
};

// The stack's height is a size hint, not a minimum size: QWidget::setMinimumHeight resizes at
// once, and the scroll area then resizes again for its new scroll bar, each time reallocating
// the paint buffers and replotting the whole stack. A hint leaves one resize, the scroll area's.
class StackPlot : public QuietPlot {
  public:
    using QuietPlot::QuietPlot;
    int stackHeight() const { return height_; }
    void setStackHeight(int height);
    QSize minimumSizeHint() const override;

  private:
    int height_ = 0;
};

}  // namespace perflab
