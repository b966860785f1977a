// SPDX-License-Identifier: MIT
#include "run_list_model.h"

#include <QColor>
#include <QStringList>

#include "model/format.h"
#include "run_report.h"
#include "wall_time.h"

namespace perflab {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString percent(double share) {
    return QStringLiteral("%1%").arg(share * 100, 0, 'f', 2);
}

QString tags_text(const RunInfo& run) {
    QStringList tags;
    for (const auto& t : run.tags)
        tags << qs(t);
    return tags.join(QStringLiteral(", "));
}

}  // namespace

RunListModel::RunListModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunListModel::setRuns(std::vector<RunInfo> runs) {
    beginResetModel();
    runs_ = std::move(runs);
    endResetModel();
}

int RunListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(runs_.size());
}

int RunListModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunListModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RunInfo& run = runs_[size_t(index.row())];
    if (role == Qt::DisplayRole) return text(run, index.column());
    if (role == Qt::UserRole) return value(run, index.column());
    if (role == Qt::ToolTipRole && !run.error.empty()) return qs(run.error);
    if (role == Qt::ForegroundRole && index.column() == Verdict) {
        const bool failed = (run.slo && !run.slo->passed) || (run.search && !run.search->max_rate);
        if (run.slo || run.search) return QColor(failed ? 0xb22222 : 0x228b22);
    }
    if (role == Qt::TextAlignmentRole && index.column() >= Duration && index.column() < Tags)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant RunListModel::text(const RunInfo& run, int column) const {
    const KeyFigures& f = run.figures;
    switch (column) {
        case Id:
            return QString::number(run.id);
        case Name:
            return qs(run.name);
        case Kind:
            return qs(run.kind);
        case Status:
            return qs(run.status);
        case Verdict:
            if (run.search)
                return run.search->max_rate
                           ? QObject::tr("max %1/s").arg(*run.search->max_rate, 0, 'f', 0)
                           : QObject::tr("FAIL");
            return run.slo ? QString(run.slo->passed ? "PASS" : "FAIL") : QString();
        case Started:
            return wall_time_text(run.started_at_ms);
        case Duration:
            return QObject::tr("%1 s").arg(f.duration_s, 0, 'f', 1);
        case Throughput:
            return QObject::tr("%1/s").arg(f.throughput, 0, 'f', 0);
        case P99:
            return qs(format_latency_us(f.p99_us));
        case Success:
            return percent(f.success);
        case HitRate:
            return f.hit_rate >= 0 ? percent(f.hit_rate) : QString();
        case Errors:
            return QString::number(f.errors);
        case Tags:
            return tags_text(run);
        default:
            return {};
    }
}

QVariant RunListModel::value(const RunInfo& run, int column) const {
    const KeyFigures& f = run.figures;
    switch (column) {
        case Id:
            return qlonglong(run.id);
        case Started:
            return qlonglong(run.started_at_ms);
        case Duration:
            return f.duration_s;
        case Throughput:
            return f.throughput;
        case P99:
            return qlonglong(f.p99_us);
        case Success:
            return f.success;
        case HitRate:
            return f.hit_rate;
        case Errors:
            return qulonglong(f.errors);
        default:
            return text(run, column);
    }
}

QVariant RunListModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* const names[ColumnCount] = {
        QT_TR_NOOP("ID"),  QT_TR_NOOP("Name"),    QT_TR_NOOP("Kind"),     QT_TR_NOOP("Status"),
        QT_TR_NOOP("SLO"), QT_TR_NOOP("Started"), QT_TR_NOOP("Duration"), QT_TR_NOOP("Throughput"),
        QT_TR_NOOP("p99"), QT_TR_NOOP("Success"), QT_TR_NOOP("Hit rate"), QT_TR_NOOP("Errors"),
        QT_TR_NOOP("Tags")};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

}  // namespace perflab
