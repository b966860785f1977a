// SPDX-License-Identifier: MIT
#include "agent_tiles.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLocale>
#include <QVBoxLayout>

#include "tick_text.h"

namespace perflab {

namespace {

constexpr double kCpuLimit = 90.0;   // % of the agent host's cores, as for the local probe
constexpr double kLateLimit = 0.01;  // of its sends in a tick

const QString kNormal = QStringLiteral("font-size: 11pt; font-weight: 600;");
const QString kWarning = QStringLiteral("font-size: 11pt; font-weight: 600; color: #b02a37;");

}  // namespace

AgentTiles::AgentTiles(QWidget* parent) : QWidget(parent) {
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    hide();
}

void AgentTiles::begin() {
    for (auto& t : tiles_)
        t.caption->parentWidget()->deleteLater();
    tiles_.clear();
    hide();
}

AgentTiles::Tile& AgentTiles::tile(size_t index, const QString& host) {
    while (tiles_.size() <= index) {
        auto* frame = new QFrame(this);
        frame->setFrameShape(QFrame::StyledPanel);
        auto* column = new QVBoxLayout(frame);
        column->setContentsMargins(8, 2, 8, 2);
        auto* caption = new QLabel(frame);
        caption->setStyleSheet(QStringLiteral("color: palette(mid); font-size: 9pt;"));
        auto* value = new TickText(frame);
        value->setText(QStringLiteral("–"));
        value->setStyleSheet(kNormal);
        column->addWidget(caption);
        column->addWidget(value);
        layout()->addWidget(frame);
        tiles_.push_back({caption, value});
    }
    Tile& t = tiles_[index];
    if (t.caption->text() != host) t.caption->setText(host);
    return t;
}

// A style sheet set anew, even the same one, polishes the tile again: only a change is set.
void AgentTiles::warn(Tile& t, bool warning) {
    if (warning == t.warning) return;
    t.warning = warning;
    t.value->setStyleSheet(warning ? kWarning : kNormal);
}

QString AgentTiles::update(const std::vector<AgentTick>& agents, double seconds) {
    if (agents.empty() || seconds <= 0) return {};
    show();
    QString limit;
    for (size_t i = 0; i < agents.size(); ++i) {
        const AgentTick& a = agents[i];
        const QString host = QString::fromStdString(a.host);
        Tile& t = tile(i, host);
        if (a.lost) {
            t.value->setText(tr("lost"));
            warn(t, true);
            continue;
        }
        QStringList parts{tr("%1 ops/s").arg(QLocale().toString(double(a.ops) / seconds, 'f', 0))};
        if (a.cpu_pct >= 0) parts << tr("CPU %1%").arg(a.cpu_pct, 0, 'f', 0);
        parts << tr("%1 late").arg(a.late);
        if (a.behind) parts << tr("behind");
        const bool cpu_bound = a.cpu_pct > kCpuLimit;
        const bool late_bound = a.ops > 0 && double(a.late) > kLateLimit * double(a.ops);
        t.value->setText(parts.join(QStringLiteral(" · ")));
        warn(t, cpu_bound || late_bound || a.behind);
        if (limit.isEmpty() && cpu_bound)
            limit = tr("agent %1 uses %2% CPU: it may be the limit, not the server.")
                        .arg(host)
                        .arg(a.cpu_pct, 0, 'f', 0);
        else if (limit.isEmpty() && late_bound)
            limit = tr("agent %1 sent %2 of %3 ops over 1 ms late: it is not keeping its schedule.")
                        .arg(host)
                        .arg(a.late)
                        .arg(a.ops);
    }
    return limit;
}

QString AgentTiles::text(int agent) const {
    const Tile& t = tiles_.at(size_t(agent));
    return t.caption->text() + QStringLiteral(": ") + t.value->text();
}

}  // namespace perflab
