// SPDX-License-Identifier: MIT
#include "stored_run_view.h"

#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>
#include <cmath>

#include "chart_export.h"
#include "file_dialogs.h"
#include "import_nmon.h"
#include "live_charts.h"
#include "run_export.h"
#include "run_store.h"
#include "search_curve.h"
#include "store_query.h"
#include "stored_run.h"
#include "time_chart.h"
#include "wall_time.h"

namespace perflab {

StoredRunView::StoredRunView(std::string dbPath, QWidget* parent)
    : QWidget(parent),
      query_(new StoreQuery(std::move(dbPath), this)),
      chart_(new TimeChart(this)),
      charts_(std::make_unique<LiveCharts>(chart_)),
      curve_(new SearchCurve(this)),
      exportCurve_(new QPushButton(tr("Export curve…"), this)),
      title_(new QLabel(this)),
      status_(new QLabel(this)),
      report_(new QPlainTextEdit(this)),
      exportReport_(new QPushButton(tr("Export report…"), this)),
      exportData_(new QPushButton(tr("Export data…"), this)),
      addCapture_(new QPushButton(tr("Add nmon capture…"), this)) {
    setupWidgets();
}

StoredRunView::~StoredRunView() = default;

void StoredRunView::setupWidgets() {
    auto* back = new QPushButton(tr("← History"), this);
    exportReport_->setToolTip(tr("The report as Markdown or HTML, with its charts as PNG files"));
    exportData_->setToolTip(
        tr("CSV: one row per tick; HdrHistogram log: every tick's latency histograms"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(back);
    // The header wraps: a long run name is no reason to widen the window.
    title_->setWordWrap(true);
    bar->addWidget(title_, 1);
    bar->addWidget(exportCurve_);
    bar->addWidget(exportReport_);
    bar->addWidget(exportData_);
    bar->addWidget(addCapture_);
    addCapture_->setToolTip(
        tr("A host watched with nmon -F during this run: its CPU, memory, network and disks "
           "charted on the run's clock"));
    report_->setReadOnly(true);
    report_->setLineWrapMode(QPlainTextEdit::NoWrap);
    report_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* charts = new QSplitter(Qt::Vertical, this);
    charts->addWidget(chart_);
    charts->addWidget(curve_);
    charts->setChildrenCollapsible(false);
    curve_->hide();
    exportCurve_->hide();
    exportCurve_->setToolTip(tr("The latency–throughput curve as PNG, PDF or SVG"));
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(charts);
    split->addWidget(report_);
    split->setChildrenCollapsible(false);
    // The chart's size hint is tiny: without sizes the report would take the whole width.
    split->setSizes({900, 500});
    status_->setStyleSheet(QStringLiteral("color: #b22222"));
    status_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(status_);
    layout->addWidget(split, 1);
    connect(back, &QPushButton::clicked, this, &StoredRunView::backRequested);
    connect(exportReport_, &QPushButton::clicked, this, &StoredRunView::chooseReportFile);
    connect(exportData_, &QPushButton::clicked, this, &StoredRunView::chooseDataFile);
    connect(addCapture_, &QPushButton::clicked, this, &StoredRunView::chooseHostCapture);
    chart_->setNotesOffered(true);
    connect(chart_, &TimeChart::noteRequested, this, [this](double t_s) {
        bool ok = false;
        const QString text = QInputDialog::getText(this, tr("Note"), tr("Note on the time axis:"),
                                                   QLineEdit::Normal, {}, &ok);
        QString error;
        if (ok && !text.trimmed().isEmpty() && !addNote(t_s, text.trimmed(), &error))
            showError(error);
    });
    connect(exportCurve_, &QPushButton::clicked, this, [this] {
        export_chart_dialog(this, curve_->plot(),
                            tr("%1: latency against throughput").arg(chart_->title()));
    });
}

void StoredRunView::open(qint64 id) {
    id_ = id;
    run_.reset();
    title_->setText(tr("Run %1: reading…").arg(id));
    status_->clear();
    report_->clear();
    exportReport_->setEnabled(false);
    exportData_->setEnabled(false);
    addCapture_->setEnabled(false);
    query_->submit(
        [id](RunStore& store) {
            return std::shared_ptr<const StoredRun>(
                std::make_shared<StoredRun>(load_stored_run(store, id)));
        },
        [this](std::shared_ptr<const StoredRun> run) { show(std::move(run)); },
        [this, id](const QString& message) {
            title_->setText(tr("Run %1").arg(id));
            showError(message);
            emit loadFailed(id, message);
        });
}

void StoredRunView::show(std::shared_ptr<const StoredRun> run) {
    run_ = std::move(run);
    const RunInfo& info = run_->report.info;
    // A summary-only run's charts have counts but no latencies: the title says why.
    title_->setText(tr("<b>Run %1: %2</b> — %3, %4%5, started %6")
                        .arg(info.id)
                        .arg(QString::fromStdString(info.name).toHtmlEscaped(),
                             QString::fromStdString(info.kind), QString::fromStdString(info.status),
                             info.summary_only ? tr(", summary only") : QString(),
                             wall_time_text(info.started_at_ms)));
    show_stored_run(*charts_, *run_);
    chart_->setTitle(tr("Run %1: %2").arg(info.id).arg(QString::fromStdString(info.name)));
    const auto& search = run_->report.summary.search;
    if (search) curve_->show(*search, run_->spec.slo ? &*run_->spec.slo : nullptr);
    curve_->setVisible(search.has_value());
    exportCurve_->setVisible(search.has_value());
    report_->setPlainText(QString::fromStdString(report_text(run_->report)));
    exportReport_->setEnabled(true);
    exportData_->setEnabled(true);
    addCapture_->setEnabled(true);
    emit runLoaded(info.id);
}

void StoredRunView::showError(const QString& message) {
    status_->setText(message);
}

int StoredRunView::ticks() const {
    return charts_->ticks();
}

QString StoredRunView::reportText() const {
    return report_->toPlainText();
}

bool StoredRunView::exportReport(const QString& path, QString* error) const {
    if (!run_) {
        *error = tr("no run is shown");
        return false;
    }
    return write_run_report(*run_, path, error);
}

bool StoredRunView::exportCsv(const QString& path, QString* error) const {
    if (!run_) {
        *error = tr("no run is shown");
        return false;
    }
    return write_ticks_csv(*run_, path, error);
}

bool StoredRunView::exportHlog(const QString& path, QString* error) const {
    if (!run_) {
        *error = tr("no run is shown");
        return false;
    }
    return write_hlog(*run_, path, error);
}

bool StoredRunView::addNote(double t_s, const QString& text, QString* error) {
    if (!run_) {
        *error = tr("no run is shown");
        return false;
    }
    try {
        RunStore(query_->path(), Access::write)
            .annotate(id_, int64_t(std::llround(t_s * 1000)), text.toStdString());
    } catch (const std::exception& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    open(id_);
    return true;
}

bool StoredRunView::importHostCapture(const QString& path, QString* error) {
    if (!run_) {
        *error = tr("no run is shown");
        return false;
    }
    try {
        import_host_capture(query_->path(), id_, path.toStdString(), {});
    } catch (const std::exception& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    open(id_);
    return true;
}

void StoredRunView::chooseHostCapture() {
    const QString path =
        ask_open_path(this, tr("Add an nmon capture to run %1").arg(id_),
                      tr("nmon capture (*.nmon);;All files (*)"), QStringLiteral("import/dir"));
    if (path.isEmpty()) return;
    QString error;
    if (!importHostCapture(path, &error)) showError(error);
}

void StoredRunView::chooseReportFile() {
    const QString path = ask_save_path(this, tr("Export run %1").arg(id_),
                                       tr("Markdown (*.md);;HTML (*.html);;PDF (*.pdf)"),
                                       QStringLiteral("export/dir"), tr("run-%1.md").arg(id_));
    if (path.isEmpty()) return;
    QString error;
    status_->setText(exportReport(path, &error) ? QString() : error);
}

void StoredRunView::chooseDataFile() {
    const QString file = ask_save_path(this, tr("Export the ticks of run %1").arg(id_),
                                       tr("CSV (*.csv);;HdrHistogram log (*.hlog)"),
                                       QStringLiteral("export/dir"), tr("run-%1.csv").arg(id_));
    if (file.isEmpty()) return;
    const bool hlog = QFileInfo(file).suffix().toLower() == QLatin1String("hlog");
    QString error;
    status_->setText((hlog ? exportHlog(file, &error) : exportCsv(file, &error)) ? QString()
                                                                                 : error);
}

}  // namespace perflab
