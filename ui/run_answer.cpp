// SPDX-License-Identifier: MIT
#include "run_answer.h"

#include <QLocale>
#include <QObject>
#include <QStringList>

#include "model/figures.h"
#include "model/format.h"
#include "model/search_result.h"
#include "model/summary.h"

namespace perflab {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s).toHtmlEscaped();
}

QString verdict(bool passed) {
    return QStringLiteral(
               "<span style=\"background:%1;color:white;padding:2px\">&nbsp;%2&nbsp;</span>")
        .arg(passed ? QStringLiteral("#198754") : QStringLiteral("#b02a37"),
             passed ? QObject::tr("PASS") : QObject::tr("FAIL"));
}

}  // namespace

QString run_answer_html(const RunSummary& summary) {
    const Figures f = figures(summary.kind, summary.overall);
    const QLocale locale;
    QStringList lines;
    QString figures_line =
        QObject::tr("<b>Run %1</b> in %2 s: %3 requests, %4/s, errors %5%")
            .arg(qs(to_string(summary.status)), locale.toString(f.duration_s, 'f', 1),
                 locale.toString(qulonglong(f.requests)),
                 locale.toString(f.throughput, 'f', f.throughput < 100 ? 1 : 0),
                 locale.toString(100.0 * f.error_rate, 'f', 2));
    if (!f.latency.empty())
        figures_line += QObject::tr(", latency p50 %1, p99 %2, max %3")
                            .arg(qs(format_latency_us(f.latency.percentile(50))),
                                 qs(format_latency_us(f.latency.percentile(99))),
                                 qs(format_latency_us(f.latency.max())));
    if (f.hit_rate)
        figures_line +=
            QObject::tr(", hit rate %1%").arg(locale.toString(100.0 * *f.hit_rate, 'f', 2));
    if (const auto& t = summary.overall.totals; tells_redirections(summary))
        figures_line +=
            QObject::tr(", Redis Cluster redirections: MOVED %1, ASK %2")
                .arg(locale.toString(qulonglong(t.moved)), locale.toString(qulonglong(t.asked)));
    lines << figures_line;
    if (summary.status == RunStatus::failed && !summary.error.empty())
        lines << QObject::tr("failed: %1").arg(qs(summary.error));
    if (summary.slo) {
        QStringList checks;
        for (const SloCheck& c : summary.slo->checks)
            checks << (c.passed ? QStringLiteral("✓ ") : QStringLiteral("✗ ")) + qs(c.text());
        lines << QObject::tr("SLO %1 %2")
                     .arg(verdict(summary.slo->passed), checks.join(QStringLiteral(" · ")));
    }
    if (summary.search) lines << qs(search_headline(*summary.search));
    return lines.join(QStringLiteral("<br>"));
}

}  // namespace perflab
