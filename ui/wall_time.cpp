// SPDX-License-Identifier: MIT
#include "wall_time.h"

#include <QDateTime>
#include <QTimeZone>

namespace perflab {

QString wall_time_text(qint64 ms) {
    const QDateTime utc = QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::utc());
    const QString text = utc.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
    const QDateTime local = QDateTime::fromMSecsSinceEpoch(ms, QTimeZone::systemTimeZone());
    if (local.offsetFromUtc() == 0) return text;
    const QString format = local.date() == utc.date() ? QStringLiteral("HH:mm:ss")
                                                      : QStringLiteral("yyyy-MM-dd HH:mm:ss");
    return QObject::tr("%1 (%2 local)").arg(text, local.toString(format));
}

}  // namespace perflab
