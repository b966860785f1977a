// SPDX-License-Identifier: MIT
#include "run_export.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>
#include <QUrl>
#include <algorithm>
#include <string>
#include <vector>

#include "chart_export.h"
#include "hlog_export.h"
#include "live_charts.h"
#include "search_curve.h"
#include "stored_run.h"
#include "time_chart.h"

namespace perflab {

namespace {

constexpr int kImageWidth = 1400;
constexpr int kPanelHeight = 190;

bool write_file(const QString& path, const std::string& text, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) ||
        file.write(text.data(), qint64(text.size())) != qint64(text.size()) || !file.commit()) {
        *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

// Draws the run's time chart into `dir` and says how the report finds it.
bool write_charts(const StoredRun& run, const QDir& dir, const QString& dirName,
                  std::vector<ReportChart>* images, QString* error) {
    if (!dir.exists() && !QDir().mkpath(dir.path())) {
        *error = QObject::tr("cannot create the folder %1").arg(dir.path());
        return false;
    }
    TimeChart chart;
    LiveCharts charts(&chart);
    show_stored_run(charts, run);
    const QString file = QStringLiteral("timeline.png");
    const int height = std::max(600, kPanelHeight * chart.panelCount());
    if (!export_chart(chart.plot(), dir.filePath(file), kImageWidth, height, error)) return false;
    const QString relative = dirName + QLatin1Char('/') + file;
    images->push_back({QObject::tr("Run %1 over time").arg(run.report.info.id).toStdString(),
                       QString::fromLatin1(QUrl::toPercentEncoding(relative, "/")).toStdString()});
    if (const auto& search = run.report.summary.search) {
        SearchCurve curve;
        curve.show(*search, run.spec.slo ? &*run.spec.slo : nullptr);
        const QString name = QStringLiteral("search-curve.png");
        if (!export_chart(curve.plot(), dir.filePath(name), kImageWidth, 700, error)) return false;
        const QString path = dirName + QLatin1Char('/') + name;
        images->push_back(
            {QObject::tr("Latency against throughput, one point per step").toStdString(),
             QString::fromLatin1(QUrl::toPercentEncoding(path, "/")).toStdString()});
    }
    return true;
}

}  // namespace

bool write_run_report(const StoredRun& run, const QString& path, QString* error) {
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    const bool markdown = suffix == QLatin1String("md") || suffix == QLatin1String("markdown");
    const bool html = suffix == QLatin1String("html") || suffix == QLatin1String("htm");
    if (!markdown && !html) {
        *error = QObject::tr("unknown report format \"%1\": use .md or .html").arg(suffix);
        return false;
    }
    const QString dirName = info.completeBaseName() + QStringLiteral("_files");
    std::vector<ReportChart> images;
    if (!write_charts(run, QDir(info.absoluteDir().filePath(dirName)), dirName, &images, error))
        return false;
    const std::string text =
        markdown ? report_markdown(run.report, images) : report_html(run.report, images);
    return write_file(path, text, error);
}

bool write_ticks_csv(const StoredRun& run, const QString& path, QString* error) {
    return write_file(path, ticks_csv(run.samples, run.spec.kind), error);
}

bool write_hlog(const StoredRun& run, const QString& path, QString* error) {
    return write_file(path, hlog_text(run.report.info, run.samples), error);
}

}  // namespace perflab
