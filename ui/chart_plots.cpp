// SPDX-License-Identifier: MIT
#include "chart_plots.h"

#include <algorithm>
#include <utility>

namespace perflab {

namespace {
constexpr int kStripPoints = 32;
}  // namespace

void AreaGraph::drawFill(QCPPainter* painter, QVector<QPointF>* lines) const {
    if (lines->size() < 2 || brush().style() == Qt::NoBrush) return;
    applyFillAntialiasingHint(painter);
    painter->setPen(Qt::NoPen);
    painter->setBrush(brush());
    const double base = getFillBasePoint(lines->front()).y();
    QPolygonF strip;
    strip.reserve(kStripPoints + 3);
    for (qsizetype first = 0; first + 1 < lines->size(); first += kStripPoints) {
        const qsizetype last = std::min<qsizetype>(first + kStripPoints, lines->size() - 1);
        strip.clear();
        for (qsizetype i = first; i <= last; ++i)
            strip.push_back((*lines)[i]);
        strip.push_back(QPointF(strip.back().x(), base));
        strip.push_back(QPointF(strip.front().x(), base));
        painter->drawPolygon(strip);
    }
}

QSize LegendEntry::minimumOuterSizeHint() const {
    Measured now{mPlottable->name(), getFont(), mParentLegend->iconSize(),
                 mParentLegend->iconTextPadding(), mMargins};
    if (size_.isValid() && now == measured_) return size_;
    measured_ = std::move(now);
    size_ = QCPPlottableLegendItem::minimumOuterSizeHint();
    return size_;
}

void BoldLineGraph::drawLinePlot(QCPPainter* painter, const QVector<QPointF>& lines) const {
    if (painter->modes().testFlag(QCPPainter::pmVectorized)) {
        QPen pen = painter->pen();
        pen.setWidthF(2 * pen.widthF());
        painter->setPen(pen);
        QCPGraph::drawLinePlot(painter, lines);
        return;
    }
    QCPGraph::drawLinePlot(painter, lines);
    painter->translate(0, -1);
    QCPGraph::drawLinePlot(painter, lines);
    painter->translate(0, 1);
}

void QuietPlot::resizeEvent(QResizeEvent* event) {
    if (size().isEmpty()) {
        setViewport(rect());
        return;
    }
    QCustomPlot::resizeEvent(event);
}

void StackPlot::setStackHeight(int height) {
    if (height == height_) return;
    height_ = height;
    updateGeometry();
}

QSize StackPlot::minimumSizeHint() const {
    const QSize layout = QuietPlot::minimumSizeHint();
    return {layout.width(), std::max(layout.height(), height_)};
}

}  // namespace perflab
