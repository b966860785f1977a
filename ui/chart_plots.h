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

// The stack's height is a size hint, not a minimum size: QWidget::setMinimumHeight resizes at
// once, and the scroll area then resizes again for its new scroll bar, each time reallocating
// the paint buffers and replotting the whole stack. A hint leaves one resize, the scroll area's.
class StackPlot : public QCustomPlot {
  public:
    using QCustomPlot::QCustomPlot;
    int stackHeight() const { return height_; }
    void setStackHeight(int height);
    QSize minimumSizeHint() const override;

  private:
    int height_ = 0;
};

}  // namespace perflab
