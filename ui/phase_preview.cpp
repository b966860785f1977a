// SPDX-License-Identifier: MIT
#include "phase_preview.h"

#include <qcustomplot.h>

#include <QVBoxLayout>
#include <nlohmann/json.hpp>

#include "chart_plots.h"

namespace perflab {

namespace {

double number(const nlohmann::json& o, const char* key) {
    const auto it = o.find(key);
    return it != o.end() && it->is_number() ? it->get<double>() : 0.0;
}

}  // namespace

PhasePreview::PhasePreview(QWidget* parent) : QWidget(parent), plot_(new QuietPlot(this)) {
    setupPlot();
}

void PhasePreview::setupPlot() {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    setMinimumHeight(140);
    plot_->addGraph(plot_->xAxis, plot_->yAxis);
    plot_->graph(0)->setName(tr("rate/s"));
    plot_->graph(0)->setPen(QPen(QColor(31, 119, 180), 2));
    plot_->graph(0)->setBrush(QColor(31, 119, 180, 40));
    plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    plot_->graph(1)->setName(tr("connections"));
    plot_->graph(1)->setPen(QPen(QColor(255, 127, 14), 2, Qt::DashLine));
    plot_->xAxis->setLabel(tr("s"));
    plot_->yAxis->setLabel(tr("rate/s"));
    plot_->yAxis2->setLabel(tr("connections"));
    plot_->yAxis2->setVisible(true);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), 8));
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
}

namespace {

// What a cache phase changes of the cache section's workload, shown over its span: the
// phase's own "workload", "keys", "value_size"... as written.
QString own_workload(const nlohmann::json& p) {
    nlohmann::json own = nlohmann::json::object();
    for (const char* key : {"workload", "get_ratio", "set_ratio", "keys", "value_size"})
        if (p.contains(key)) own[key] = p[key];
    if (own.empty()) return {};
    QString text = QString::fromStdString(own.dump());
    return text.size() > 48 ? text.left(47) + QChar(0x2026) : text;
}

}  // namespace

void PhasePreview::show(const nlohmann::json& phases) {
    QVector<double> t, rate, tc, conns;
    double start = 0;
    plot_->clearItems();
    if (phases.is_array())
        for (const auto& p : phases) {
            if (!p.is_object()) continue;
            const double d = std::max(number(p, "duration_s"), 0.0);
            const double r = number(p, "rate");
            const double to = p.contains("rate_to") ? number(p, "rate_to") : r;
            const bool open = r > 0;
            t << start << start + d;
            rate << (open ? r : 0) << (open ? to : 0);
            tc << start << start + d;
            const double c = number(p, "concurrency");
            conns << (open ? qQNaN() : c) << (open ? qQNaN() : c);
            if (const QString own = own_workload(p); !own.isEmpty()) {
                auto* label = new QCPItemText(plot_);
                label->setObjectName(QStringLiteral("workload"));
                label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
                label->position->setCoords(start + d / 2, 0.92);
                label->setText(own);
                label->setFont(QFont(font().family(), 7));
            }
            start += d;
        }
    plot_->graph(0)->setData(t, rate, true);
    plot_->graph(1)->setData(tc, conns, true);
    plot_->xAxis->setRange(0, std::max(start, 1.0));
    bool ok = false;
    const QCPRange r = plot_->graph(0)->getValueRange(ok);
    plot_->yAxis->setRange(0, ok ? std::max(r.upper * 1.15, 1.0) : 1.0);
    const QCPRange c = plot_->graph(1)->getValueRange(ok);
    plot_->yAxis2->setRange(0, ok ? std::max(c.upper * 1.15, 1.0) : 1.0);
    plot_->replot(QCustomPlot::rpQueuedRefresh);
}

}  // namespace perflab
