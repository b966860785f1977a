// SPDX-License-Identifier: MIT
// The crosshair: a line at the pointer's time across every panel, and a tooltip with each
// visible series' value at that tick.
#include <qcustomplot.h>

#include <QLocale>
#include <QMouseEvent>
#include <QToolTip>
#include <algorithm>

#include "chart_export.h"
#include "compact_ticks.h"
#include "graph_values.h"
#include "time_chart.h"

namespace perflab {

namespace {

QString valueText(double v) {
    if (v != 0 && std::abs(v) < 10) return QString::number(v, 'g', 3);
    return QLocale().toString(v, 'f', 0);
}

}  // namespace

void TimeChart::showTooltip(QMouseEvent* event) {
    QCPAxisRect* rect = plot_->axisRectAt(event->pos());
    if (!rect) {
        hideCrosshair();
        return QToolTip::hideText();
    }
    const double t = rect->axis(QCPAxis::atBottom)->pixelToCoord(event->pos().x());
    showCrosshair(t);
    QToolTip::showText(event->globalPosition().toPoint(), crosshairText(t), plot_);
}

void TimeChart::showCrosshair(double t_s) {
    for (auto& p : panels_) {
        if (!p.cursor) {
            p.cursor = new QCPItemStraightLine(plot_);
            p.cursor->setLayer(kPointerLayer);
            p.cursor->setClipAxisRect(p.rect);
            p.cursor->setPen(QPen(QColor(90, 90, 90), 1, Qt::DotLine));
            for (auto* pos : {p.cursor->point1, p.cursor->point2}) {
                pos->setAxes(p.rect->axis(QCPAxis::atBottom), p.rect->axis(QCPAxis::atLeft));
                pos->setTypeY(QCPItemPosition::ptAxisRectRatio);
                pos->setAxisRect(p.rect);
            }
        }
        p.cursor->point1->setCoords(t_s, 0);
        p.cursor->point2->setCoords(t_s, 1);
        p.cursor->setVisible(p.rect->visible());
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void TimeChart::hideCrosshair() {
    bool shown = false;
    for (auto& p : panels_)
        if (p.cursor && p.cursor->visible()) {
            p.cursor->setVisible(false);
            shown = true;
        }
    if (shown) plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool TimeChart::crosshairVisible() const {
    return std::any_of(panels_.begin(), panels_.end(),
                       [](const Panel& p) { return p.cursor && p.cursor->visible(); });
}

// Every visible panel's series at the tick nearest t, each value with its panel's unit: the
// latency panels' ms, bytes in 1024-based units, else the panel's own label ("ops/s", "CPU
// %"). A stacked area says its own share ("system: 12 CPU %"), not the sum it is drawn at.
QString TimeChart::crosshairText(double t_s) const {
    const int whole = int(std::max(0.0, t_s));
    QStringList lines{QStringLiteral("%1:%2:%3.%4")
                          .arg(whole / 3600, 2, 10, QLatin1Char('0'))
                          .arg(whole / 60 % 60, 2, 10, QLatin1Char('0'))
                          .arg(whole % 60, 2, 10, QLatin1Char('0'))
                          .arg(int(std::max(0.0, t_s) * 10) % 10)};
    for (const int i : panelsInOrder()) {
        const Panel& p = panels_[size_t(i)];
        if (!p.rect->visible()) continue;
        const QString label = p.rect->axis(QCPAxis::atLeft)->label();
        for (QCPGraph* g : p.rect->graphs()) {
            if (!g->visible() || g->data()->isEmpty() || g->name().isEmpty()) continue;
            double v = value_nearest(*g, t_s);
            QString name = g->name();
            if (const auto at = std::find(p.stack.begin(), p.stack.end(), g); at != p.stack.end()) {
                if (at + 1 != p.stack.end()) v -= value_nearest(**(at + 1), t_s);
                if (name.startsWith(QLatin1Char('+'))) name.remove(0, 1);
            }
            QString text;
            if (p.unit == AxisUnit::milliseconds)
                text = valueText(v) % QStringLiteral(" ms");
            else if (p.unit == AxisUnit::bytes)
                text = binary_bytes(v) %
                       (label.endsWith(QLatin1String("/s")) ? QStringLiteral("/s") : QString());
            else
                text = valueText(v) % QLatin1Char(' ') % label;
            lines << name % QStringLiteral(": ") % text;
        }
    }
    return lines.join(QLatin1Char('\n'));
}

}  // namespace perflab
