// SPDX-License-Identifier: MIT
#include "run_export.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QSaveFile>
#include <QUrl>
#include <algorithm>
#include <string>
#include <vector>

#include "hlog_export.h"
#include "live_charts.h"
#include "pdf_charts.h"
#include "pdf_report.h"
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

struct Chart {
    QString title;
    QString file;  // its name beside a Markdown report, or among a PDF's resources
    QImage image;
};

// The run's charts as the history draws them: its time chart, and a search's curve.
std::vector<Chart> draw_charts(const StoredRun& run) {
    std::vector<Chart> out;
    TimeChart chart;
    LiveCharts charts(&chart);
    show_stored_run(charts, run);
    const int height = std::max(600, kPanelHeight * chart.panelCount());
    out.push_back({QObject::tr("Run %1 (%2) over time")
                       .arg(run.report.info.id)
                       .arg(QString::fromStdString(run.report.info.name)),
                   QStringLiteral("timeline.png"),
                   chart.plot()->toPixmap(kImageWidth, height).toImage()});
    if (const auto& search = run.report.summary.search) {
        SearchCurve curve;
        curve.show(*search, run.spec.slo ? &*run.spec.slo : nullptr);
        out.push_back({QObject::tr("Run %1: latency against throughput, one point per step")
                           .arg(run.report.info.id),
                       QStringLiteral("search-curve.png"),
                       curve.plot()->toPixmap(kImageWidth, 700).toImage()});
    }
    return out;
}

QByteArray png_of(const QImage& image) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

// Markdown: the charts as PNG files in a folder beside the report (report.md →
// report_files/), referenced by relative paths.
bool write_markdown(const StoredRun& run, const QFileInfo& info, QString* error) {
    const QString dirName = info.completeBaseName() + QStringLiteral("_files");
    const QDir dir(info.absoluteDir().filePath(dirName));
    if (!dir.exists() && !QDir().mkpath(dir.path())) {
        *error = QObject::tr("cannot create the folder %1").arg(dir.path());
        return false;
    }
    std::vector<ReportChart> images;
    for (const Chart& c : draw_charts(run)) {
        if (!c.image.save(dir.filePath(c.file), "PNG")) {
            *error = QObject::tr("cannot write %1").arg(dir.filePath(c.file));
            return false;
        }
        const QString relative = dirName + QLatin1Char('/') + c.file;
        images.push_back(
            {c.title.toStdString(),
             QString::fromLatin1(QUrl::toPercentEncoding(relative, "/")).toStdString()});
    }
    return write_file(info.filePath(), report_markdown(run.report, images), error);
}

// HTML: one self-contained file, the charts inline as data URIs.
bool write_html(const StoredRun& run, const QFileInfo& info, QString* error) {
    std::vector<ReportChart> images;
    for (const Chart& c : draw_charts(run))
        images.push_back({c.title.toStdString(),
                          "data:image/png;base64," + png_of(c.image).toBase64().toStdString()});
    return write_file(info.filePath(), report_html(run.report, images), error);
}

// PDF: the summary first, then the tables, each panel of the charts as a block of its own
// drawn as vector graphics, then the run's facts, machines, spec and events.
bool write_pdf(const StoredRun& run, const QFileInfo& info, QString* error) {
    const ReportHtmlParts parts = report_html_parts(run.report);
    const QString name = QObject::tr("run %1: %2")
                             .arg(run.report.info.id)
                             .arg(QString::fromStdString(run.report.info.name));
    const auto html = [](const std::string& s) { return QString::fromStdString(s); };
    PdfReport pdf(QObject::tr("PerfLab %1").arg(name), html(parts.style));
    pdf.addText(html(parts.title + parts.summary));
    for (const auto& phase : parts.phases)
        pdf.addText(html(phase));
    for (const std::string* table :
         {&parts.transactions, &parts.nodes, &parts.agents, &parts.servers, &parts.search})
        if (!table->empty()) pdf.addText(html(*table));
    TimeChart chart;
    LiveCharts charts(&chart);
    show_stored_run(charts, run);
    SearchCurve curve;
    pdf.addText(QStringLiteral("<h2>%1</h2>").arg(QObject::tr("Charts")), true);
    add_pdf_panels(pdf, chart, name);
    if (const auto& search = run.report.summary.search) {
        curve.show(*search, run.spec.slo ? &*run.spec.slo : nullptr);
        add_pdf_chart(pdf, curve.plot(),
                      QObject::tr("Latency against throughput, one point per step — %1").arg(name),
                      2 * kPdfPanelHeight);
    }
    pdf.addText(QStringLiteral("<h2>%1</h2>").arg(QObject::tr("Run")) + html(parts.facts));
    for (const auto& machine : parts.machines)
        pdf.addText(html(machine));
    for (const std::string* rest : {&parts.spec, &parts.events})
        if (!rest->empty()) pdf.addText(html(*rest));
    return pdf.write(info.filePath(), error);
}

}  // namespace

bool write_run_report(const StoredRun& run, const QString& path, QString* error) {
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    if (suffix == QLatin1String("md") || suffix == QLatin1String("markdown"))
        return write_markdown(run, info, error);
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return write_html(run, info, error);
    if (suffix == QLatin1String("pdf")) return write_pdf(run, info, error);
    *error = QObject::tr("unknown report format \"%1\": use .md, .html or .pdf").arg(suffix);
    return false;
}

bool write_ticks_csv(const StoredRun& run, const QString& path, QString* error) {
    return write_file(path, ticks_csv(run.samples, run.spec.kind, run.report.summary.redis_cluster),
                      error);
}

bool write_hlog(const StoredRun& run, const QString& path, QString* error) {
    return write_file(path, hlog_text(run.report.info, run.samples, run.report.summary), error);
}

}  // namespace perflab
