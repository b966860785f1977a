// SPDX-License-Identifier: MIT
#include "search_curve.h"

#include <qcustomplot.h>

#include <QVBoxLayout>
#include <algorithm>

#include "chart_plots.h"
#include "compact_ticks.h"
#include "model/search_result.h"
#include "model/spec.h"

namespace perflab {

namespace {

struct Curve {
    const char* name;
    const char* slo_key;
    std::optional<double> SearchStep::*value;
    QColor color;
};

const Curve kCurves[] = {{"p50", "p50", &SearchStep::p50_ms, QColor(0x1f, 0x77, 0xb4)},
                         {"p99", "p99", &SearchStep::p99_ms, QColor(0xff, 0x7f, 0x0e)},
                         {"p99.9", "p999", &SearchStep::p999_ms, QColor(0xd6, 0x27, 0x28)}};

}  // namespace

SearchCurve::SearchCurve(QWidget* parent) : QWidget(parent), plot_(new QuietPlot(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    setupAxes();
}

void SearchCurve::setupAxes() {
    plot_->xAxis->setLabel(tr("achieved throughput (ops/s)"));
    plot_->xAxis->setTicker(compact_ticker(AxisUnit::count, false));
    plot_->yAxis->setScaleType(QCPAxis::stLogarithmic);
    plot_->yAxis->setTicker(compact_ticker(AxisUnit::milliseconds, true));
    plot_->yAxis->setLabel(tr("latency"));
    // Above the plot, where it covers no point.
    QCPLegend* legend = plot_->legend;
    plot_->plotLayout()->insertRow(0);
    plot_->axisRect()->insetLayout()->take(legend);
    plot_->plotLayout()->addElement(0, 0, legend);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    legend->setVisible(true);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setFont(QFont(font().family(), 8));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
}

void SearchCurve::show(const SearchResult& result, const SloSpec* slo) {
    plot_->clearGraphs();
    plot_->clearItems();
    limits_ = 0;
    knee_ = false;
    holds_ = 0;
    // A step's points in throughput order, so a curve reads left to right. A confirmation
    // hold repeats a rate for longer: it is a mark of its own, not a point of the curves.
    std::vector<const SearchStep*> steps;
    for (const auto& s : result.steps)
        if (!s.confirm) steps.push_back(&s);
    std::sort(steps.begin(), steps.end(), [](const SearchStep* a, const SearchStep* b) {
        return a->throughput < b->throughput;
    });
    double low = 0, high = 0, right = 1;
    for (const auto& c : kCurves) {
        auto* graph = plot_->addGraph();
        graph->setName(tr(c.name));
        graph->setPen(QPen(c.color, 1.5));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
        QVector<double> xs, ys;
        for (const SearchStep* s : steps) {
            const auto& v = s->*c.value;
            if (!v || *v <= 0) continue;
            xs.push_back(s->throughput);
            ys.push_back(*v);
            low = low > 0 ? std::min(low, *v) : *v;
            high = std::max(high, *v);
            right = std::max(right, s->throughput);
        }
        graph->setData(xs, ys, true);
        if (!slo) continue;
        const auto limit = slo->latency_ms.find(c.slo_key);
        if (limit == slo->latency_ms.end()) continue;
        auto* line = new QCPItemStraightLine(plot_);
        line->point1->setCoords(0, limit->second);
        line->point2->setCoords(1, limit->second);
        line->setPen(QPen(c.color, 1, Qt::DashLine));
        auto* label = new QCPItemText(plot_);
        label->position->setCoords(0, limit->second);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setText(tr("%1 limit %2").arg(tr(c.name), compact_ms(limit->second)));
        label->setColor(c.color);
        label->setFont(QFont(font().family(), 8));
        low = low > 0 ? std::min(low, limit->second) : limit->second;
        high = std::max(high, limit->second);
        ++limits_;
    }
    for (const bool passed : {true, false}) {
        QVector<double> xs, ys;
        for (const auto& s : result.steps)
            if (s.confirm && s.passed == passed && s.p99_ms && *s.p99_ms > 0) {
                xs.push_back(s.throughput);
                ys.push_back(*s.p99_ms);
                right = std::max(right, s.throughput);
                low = low > 0 ? std::min(low, *s.p99_ms) : *s.p99_ms;
                high = std::max(high, *s.p99_ms);
            }
        if (xs.isEmpty()) continue;
        const QColor color = passed ? QColor(0x2c, 0xa0, 0x2c) : QColor(0xd6, 0x27, 0x28);
        auto* graph = plot_->addGraph();
        graph->setName(passed ? tr("hold passed (p99)") : tr("hold failed (p99)"));
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(
            passed ? QCPScatterStyle::ssDiamond : QCPScatterStyle::ssCross, color, 11));
        graph->setData(xs, ys);
        holds_ += int(xs.size());
    }
    // The sustained answer: a hold's when there was one (they come last).
    const SearchStep* at_max = nullptr;
    for (const auto& s : result.steps)
        if (result.max_rate && s.passed && s.rate == *result.max_rate) at_max = &s;
    if (const SearchStep* s = at_max) {
        auto* knee = new QCPItemStraightLine(plot_);
        knee->point1->setCoords(s->throughput, 1);
        knee->point2->setCoords(s->throughput, 2);
        knee->setPen(QPen(QColor(0x2c, 0xa0, 0x2c), 1.5, Qt::DotLine));
        auto* label = new QCPItemText(plot_);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(s->throughput, 0.02);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setText(
            (result.confirmed ? tr(" knee: max rate %1/s, held") : tr(" knee: max rate %1/s"))
                .arg(compact_count(*result.max_rate)));
        label->setColor(QColor(0x2c, 0xa0, 0x2c));
        knee_ = true;
    }
    plot_->xAxis->setRange(0, right * 1.1);
    if (high > 0) plot_->yAxis->setRange(std::max(low / 2, 1e-3), high * 2);
    plot_->replot(QCustomPlot::rpQueuedRefresh);
}

int SearchCurve::points() const {
    return plot_->graphCount() ? plot_->graph(0)->dataCount() : 0;
}

}  // namespace perflab
