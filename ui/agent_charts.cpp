// SPDX-License-Identifier: MIT
#include "agent_charts.h"

#include <qcustomplot.h>

#include "time_chart.h"

namespace perflab {

namespace {

const QColor kColors[] = {QColor(31, 119, 180),  QColor(255, 127, 14),  QColor(44, 160, 44),
                          QColor(214, 39, 40),   QColor(148, 103, 189), QColor(140, 86, 75),
                          QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34),
                          QColor(23, 190, 207)};

}  // namespace

QString AgentCharts::kind() {
    return QObject::tr("Agents");
}

void AgentCharts::begin(const RunSpec& spec) {
    ops_ = late_ = -1;
    lines_.clear();
    // The panels come with the first tick: their room is kept from the start.
    if (!spec.agents.empty()) chart_->reservePanels({kind(), kind()});
}

AgentCharts::Lines& AgentCharts::lines(const std::string& host) {
    if (ops_ < 0) {
        ops_ = chart_->addPanel(QObject::tr("ops/s per agent"), TimeChart::Scale::linear, kind());
        late_ = chart_->addPanel(QObject::tr("late/s per agent"), TimeChart::Scale::linear, kind());
        // After the run's own panels, before the probes' (probe_charts.cpp's groups 1 and up).
        chart_->setPanelOrder(ops_, QStringLiteral("0 agents 1"));
        chart_->setPanelOrder(late_, QStringLiteral("0 agents 2"));
    }
    auto it = lines_.find(host);
    if (it != lines_.end()) return it->second;
    const QColor color = kColors[lines_.size() % std::size(kColors)];
    const QString name = QString::fromStdString(host);
    return lines_
        .emplace(host,
                 Lines{chart_->addSeries(ops_, name, color), chart_->addSeries(late_, name, color)})
        .first->second;
}

void AgentCharts::addSample(double t_s, double seconds, const std::vector<AgentTick>& agents) {
    for (const auto& a : agents) {
        Lines& l = lines(a.host);
        if (a.lost) continue;
        chart_->append(l.ops, t_s, double(a.ops) / seconds);
        chart_->append(l.late, t_s, double(a.late) / seconds);
    }
}

}  // namespace perflab
