// SPDX-License-Identifier: MIT
#include "percentile_chart.h"

#include <qcustomplot.h>

#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "chart_plots.h"
#include "compact_ticks.h"
#include "graph_values.h"
#include "model/compare_stats.h"
#include "model/histogram.h"

namespace perflab {

PercentileChart::PercentileChart(QWidget* parent) : QWidget(parent), plot_(new QuietPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    setupAxes();
}

PercentileChart::~PercentileChart() = default;

void PercentileChart::setupAxes() {
    QCPAxis* x = plot_->xAxis;
    x->setScaleType(QCPAxis::stLogarithmic);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const QStringList labels = {QStringLiteral("0%"),     QStringLiteral("90%"),
                                QStringLiteral("99%"),    QStringLiteral("99.9%"),
                                QStringLiteral("99.99%"), QStringLiteral("99.999%")};
    for (int i = 0; i < labels.size(); ++i)
        ticker->addTick(std::pow(10.0, i), labels[i]);
    x->setTicker(ticker);
    x->setLabel(tr("percentile"));
    // A little past 99.999% so its label is not cut off at the edge.
    x->setRange(1, kMaxNines * 2);
    QCPAxis* y = plot_->yAxis;
    y->setScaleType(QCPAxis::stLogarithmic);
    y->setTicker(compact_ticker(AxisUnit::milliseconds, true));
    y->setLabel(tr("latency"));
    setupLegend();
    setupPercentileLines();
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* event) {
        if (!plot_->axisRect()->rect().contains(event->pos())) return QToolTip::hideText();
        QToolTip::showText(event->globalPosition().toPoint(),
                           tooltipAt(plot_->xAxis->pixelToCoord(event->pos().x())), plot_);
    });
}

// Where the tail is read: dotted lines at 90%, 99%, 99.9% and 99.99%, labelled at the top.
void PercentileChart::setupPercentileLines() {
    const std::pair<double, const char*> lines[] = {
        {10, "90%"}, {100, "99%"}, {1000, "99.9%"}, {10000, "99.99%"}};
    for (const auto& [x, label] : lines) {
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(x, 1);
        line->point2->setCoords(x, 2);
        line->setPen(QPen(QColor(150, 150, 150), 1, Qt::DotLine));
        auto* text = new QCPItemText(plot_);
        text->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(x, 0);
        text->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setText(QString::fromLatin1(label));
        text->setColor(QColor(110, 110, 110));
        text->setFont(QFont(font().family(), 8));
    }
}

QString PercentileChart::tooltipAt(double x) const {
    const double p = percentile_at(std::max(1.0, x));
    QStringList lines{QStringLiteral("%1%").arg(p, 0, 'f', p < 99 ? 1 : p < 99.99 ? 2 : 3)};
    for (int i = 0; i < plot_->graphCount(); ++i) {
        const QCPGraph* g = plot_->graph(i);
        if (g->name().isEmpty() || g->data()->isEmpty()) continue;  // a band's bounds
        lines << g->name() + QStringLiteral(": ") + compact_ms(value_nearest(*g, x));
    }
    return lines.join(QLatin1Char('\n'));
}

// Above the plot area, where it covers none of the tail (99%–99.9% sat under it).
void PercentileChart::setupLegend() {
    QCPLegend* legend = plot_->legend;
    auto* header = new QCPLayoutGrid;
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, header);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    plot_->axisRect()->insetLayout()->take(legend);
    header->addElement(0, 0, legend);
    header->addElement(0, 1, new QCPLayoutElement(plot_));
    header->setColumnStretchFactor(0, 0.001);
    legend->setVisible(true);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(3);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setFont(QFont(font().family(), 8));
    legend->setColumnSpacing(12);
}

QCPGraph* PercentileChart::addRun(const QString& name, const QColor& color,
                                  const Histogram& latency) {
    auto* graph = plot_->addGraph();
    graph->setName(name);
    graph->setPen(QPen(color, 1.5));
    if (latency.empty()) return graph;
    QVector<double> xs, ys;
    for (const double x : grid(latency.count())) {
        xs.push_back(x);
        ys.push_back(double(latency.percentile(percentile_at(x))) / 1000.0);
    }
    graph->setData(xs, ys, true);
    rescale();
    return graph;
}

std::vector<double> PercentileChart::grid(uint64_t count) {
    std::vector<double> xs;
    if (count == 0) return xs;
    const double last = std::min(kMaxNines, double(count));
    // Powers of ten exactly, so 90%, 99%... are points of the curve.
    for (int k = 0;; ++k) {
        const double x = std::pow(10.0, double(k) / kPointsPerDecade);
        if (x >= last) break;
        xs.push_back(x);
    }
    xs.push_back(last);
    return xs;
}

void PercentileChart::addBand(const QColor& color, const PercentileBand& band) {
    QVector<double> xs, lo, hi;
    for (size_t k = 0; k < band.percentiles.size(); ++k) {
        if (std::isnan(band.lo_us[k]) || std::isnan(band.hi_us[k])) continue;
        xs.push_back(nines_x(band.percentiles[k]));
        lo.push_back(band.lo_us[k] / 1000.0);
        hi.push_back(band.hi_us[k] / 1000.0);
    }
    if (xs.isEmpty()) return;
    auto* lower = plot_->addGraph();
    auto* upper = plot_->addGraph();
    QColor tint = color;
    tint.setAlpha(45);
    for (auto* g : {lower, upper}) {
        g->setName(QString());  // no legend row, no tooltip line
        g->setPen(Qt::NoPen);
        g->removeFromLegend();
    }
    lower->setData(xs, lo, true);
    upper->setData(xs, hi, true);
    upper->setBrush(tint);
    upper->setChannelFillGraph(lower);
    ++bands_;
    rescale();
}

void PercentileChart::clear() {
    plot_->clearGraphs();
    bands_ = 0;
    plot_->replot(QCustomPlot::rpQueuedRefresh);
}

void PercentileChart::rescale() {
    bool ok = false;
    QCPRange range;
    for (int i = 0; i < plot_->graphCount(); ++i) {
        bool found = false;
        const QCPRange r = plot_->graph(i)->getValueRange(found);
        if (!found) continue;
        range = ok ? QCPRange(std::min(range.lower, r.lower), std::max(range.upper, r.upper)) : r;
        ok = true;
    }
    if (ok) plot_->yAxis->setRange(std::max(range.lower / 1.5, 1e-3), range.upper * 1.5);
    plot_->replot(QCustomPlot::rpQueuedRefresh);
}

}  // namespace perflab
