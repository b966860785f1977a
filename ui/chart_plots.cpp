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

QColor legend_text_color(const QPalette& palette, bool shown) {
    QColor text = palette.color(QPalette::WindowText);
    if (!shown) text.setAlphaF(0.4f);
    return text;
}

void QuietPlot::followPalette() {
    const QPalette& p = palette();
    const QColor text = p.color(QPalette::WindowText);
    const QColor base = p.color(QPalette::Base);
    // The grid a faint line of the text's colour over the background, in light and dark alike.
    QColor grid = text;
    grid.setAlphaF(0.22f);
    QColor subGrid = text;
    subGrid.setAlphaF(0.10f);
    setBackground(base);
    for (QCPLayoutElement* e : plotLayout()->elements(true)) {
        if (auto* rect = qobject_cast<QCPAxisRect*>(e)) {
            for (QCPAxis* axis : rect->axes()) {
                axis->setBasePen(QPen(text, 0));
                axis->setTickPen(QPen(text, 0));
                axis->setSubTickPen(QPen(text, 0));
                axis->setTickLabelColor(text);
                axis->setLabelColor(text);
                axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
                axis->grid()->setSubGridPen(QPen(subGrid, 0, Qt::DotLine));
            }
        } else if (auto* legend = qobject_cast<QCPLegend*>(e)) {
            legend->setTextColor(text);
            for (int i = 0; i < legend->itemCount(); ++i)
                if (auto* entry = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
                    entry->setTextColor(legend_text_color(p, entry->plottable()->visible()));
        } else if (auto* title = qobject_cast<QCPTextElement*>(e)) {
            title->setTextColor(text);
        }
    }
}

void QuietPlot::changeEvent(QEvent* event) {
    QCustomPlot::changeEvent(event);
    if (event->type() != QEvent::PaletteChange) return;
    followPalette();
    replot(QCustomPlot::rpQueuedReplot);
}

void QuietPlot::showEvent(QShowEvent* event) {
    QCustomPlot::showEvent(event);
    followPalette();
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
