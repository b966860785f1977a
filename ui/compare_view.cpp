// SPDX-License-Identifier: MIT
#include "compare_view.h"

#include <qcustomplot.h>

#include <QDir>
#include <QFileInfo>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include "chart_export.h"
#include "compare_data.h"
#include "compare_figures.h"
#include "compare_pdf.h"
#include "compare_report.h"
#include "file_dialogs.h"
#include "frozen_column_table.h"
#include "percentile_chart.h"
#include "store_query.h"
#include "time_chart.h"

namespace perflab {

namespace {

constexpr int kReportWidth = 1400, kOverTimeHeight = 900, kPercentilesHeight = 600;
constexpr int kLabelChars = 24;    // of a run's column heading and legend entry
constexpr int kMessageChars = 60;  // of a run's line above the table

QColor run_color(size_t i) {
    static const QColor palette[] = {
        QColor(31, 119, 180),  QColor(255, 127, 14), QColor(44, 160, 44),   QColor(214, 39, 40),
        QColor(148, 103, 189), QColor(140, 86, 75),  QColor(227, 119, 194), QColor(127, 127, 127)};
    return palette[i % std::size(palette)];
}

QString run_title(const RunInfo& r) {
    return QStringLiteral("#%1 %2").arg(r.id).arg(QString::fromStdString(r.name));
}

// "#12 name" in about `chars` characters, elided in the middle: runs of one long name keep
// their ids and the ends of their names apart, where a cut end made them look the same.
QString run_label(const RunInfo& r, const QFontMetrics& metrics, int chars = kLabelChars) {
    return metrics.elidedText(run_title(r), Qt::ElideMiddle, metrics.averageCharWidth() * chars);
}

QTableWidget* read_only(QTableWidget* table) {
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::ContiguousSelection);
    table->verticalHeader()->setVisible(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return table;
}

QTableWidgetItem* item(const QString& text, const QColor& background = {}) {
    auto* i = new QTableWidgetItem(text);
    if (background.isValid()) i->setBackground(background);
    return i;
}

}  // namespace

CompareView::CompareView(const std::string& dbPath, QWidget* parent)
    : QWidget(parent), query_(new StoreQuery(dbPath, this)) {
    setupUi();
    clearResults();
    message_->setText(tr("Select two or more runs in History and choose Compare."));
}

CompareView::~CompareView() = default;

void CompareView::setupUi() {
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner_ = new QLabel(this);
    banner_->setWordWrap(true);
    banner_->setStyleSheet(QStringLiteral(
        "QLabel{background:#fff2a8;border:1px solid #e0b000;padding:6px;font-weight:bold}"));
    banner_->hide();
    figures_ = read_only(new FrozenColumnTable(this));
    differences_ = read_only(new QTableWidget(this));
    connect(figures_->horizontalHeader(), &QHeaderView::sectionDoubleClicked, this, [this](int c) {
        if (c >= 1 && size_t(c) <= ids_.size()) emit openRunRequested(ids_[size_t(c) - 1]);
    });
    overTime_ = new TimeChart(this);
    overTime_->rememberPanelChoices(QStringLiteral("compare/hiddenPanels"));
    percentiles_ = new PercentileChart(this);

    auto* tables = new QSplitter(Qt::Vertical, this);
    tables->addWidget(figures_);
    tables->addWidget(differences_);
    tables->setSizes({600, 200});  // every figure in view; differences are few
    auto* charts = new QTabWidget(this);
    charts->addTab(overTime_, tr("Over time"));
    charts->addTab(percentiles_, tr("Percentiles"));
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(tables);
    split->addWidget(charts);
    // The figures table needs room for a column per run; the charts take the rest.
    split->setSizes({560, 940});
    split->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(setupToolbar());
    layout->addWidget(banner_);
    layout->addWidget(split, 1);
}

QWidget* CompareView::setupToolbar() {
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    reportButton_ = new QPushButton(tr("Export report…"), bar);
    connect(reportButton_, &QPushButton::clicked, this, &CompareView::exportReportDialog);
    chartButton_ = new QPushButton(tr("Export chart"), bar);
    auto* menu = new QMenu(chartButton_);
    menu->addAction(tr("Over time…"), this, [this] { exportChartDialog(Chart::overTime); });
    menu->addAction(tr("Percentiles…"), this, [this] { exportChartDialog(Chart::percentiles); });
    chartButton_->setMenu(menu);
    row->addWidget(message_, 1);
    row->addWidget(reportButton_);
    row->addWidget(chartButton_);
    return bar;
}

void CompareView::compare(QList<qint64> ids) {
    ids_.assign(ids.begin(), ids.end());
    clearResults();
    if (ids_.size() < 2) {
        query_->cancel();
        return showFailure(tr("Select at least two runs to compare (got %1).").arg(ids_.size()));
    }
    QStringList names;
    std::vector<std::vector<int64_t>> sides;
    for (const qint64 id : ids) {
        names << QString::number(id);
        sides.push_back({id});
    }
    load(std::move(sides), tr("Comparing runs %1…").arg(names.join(QStringLiteral(", "))));
}

void CompareView::compareSeries(QList<qint64> a, QList<qint64> b) {
    clearResults();
    if (a.isEmpty() || b.isEmpty()) {
        query_->cancel();
        return showFailure(tr("An A/B comparison needs runs on both sides."));
    }
    ids_ = {a.front(), b.front()};
    load({{a.begin(), a.end()}, {b.begin(), b.end()}},
         tr("Comparing %1 runs of B with %2 runs of A…").arg(b.size()).arg(a.size()));
}

void CompareView::load(std::vector<std::vector<int64_t>> sides, const QString& message) {
    message_->setStyleSheet({});
    message_->setTextFormat(Qt::PlainText);
    message_->setText(message);
    query_->submit(
        [sides = std::move(sides)](RunStore& store) { return load_compare_sides(store, sides); },
        [this](const CompareData& data) { showComparison(data); },
        [this](const QString& error) { showFailure(tr("Cannot compare: %1").arg(error)); });
}

void CompareView::clearResults() {
    comparison_.reset();
    banner_->hide();
    figures_->clear();
    figures_->setRowCount(0);
    figures_->setColumnCount(0);
    differences_->clear();
    differences_->setRowCount(0);
    differences_->setColumnCount(0);
    overTime_->clear();
    percentiles_->clear();
    reportButton_->setEnabled(false);
    chartButton_->setEnabled(false);
}

void CompareView::showFailure(const QString& message) {
    message_->setTextFormat(Qt::PlainText);
    message_->setText(message);
    message_->setStyleSheet(QStringLiteral("color:#b00020"));
    emit failed(message);
}

void CompareView::showComparison(const CompareData& data) {
    const Comparison& c = data.comparison;
    // Elided too: a name longer than the window has room for made the window wider.
    QStringList names, titles, labels;
    for (const auto& r : c.runs) {
        names << run_label(r, message_->fontMetrics(), kMessageChars).toHtmlEscaped();
        titles << run_title(r);
        labels << run_label(r, fontMetrics());
    }
    message_->setToolTip(titles.join(QLatin1Char('\n')));
    runLabels_ = labels.join(QStringLiteral(", "));
    overTime_->setTitle(chartTitle(Chart::overTime));
    message_->setStyleSheet({});
    message_->setTextFormat(Qt::RichText);
    message_->setText(tr("%1<br>Changes against #%2, with their 95% interval [lo, hi]: green "
                         "or red only when better or worse beyond the noise and 5%.")
                          .arg(names.join(QStringLiteral("<br>")))
                          .arg(c.runs.front().id));
    banner_->setText(
        tr("These runs ran on different machines: differences may come from the "
           "hardware, not from the change under test (see the machine rows)."));
    banner_->setVisible(c.different_machines);
    fillFigures(c);
    fillDifferences(c);
    fillOverTime(data);
    fillPercentiles(data);
    comparison_ = c;
    reportButton_->setEnabled(true);
    chartButton_->setEnabled(true);
    emit compared();
}

// A column per run headed by its label, the full name in the heading's tooltip: a long name
// does not push the other runs' columns off screen. The figures' names stay in view when the
// runs' columns scroll.
void CompareView::fillFigures(const Comparison& c) {
    figures_->setColumnCount(int(c.runs.size()) + 1);
    figures_->setHorizontalHeaderItem(0, new QTableWidgetItem(tr("figure")));
    const QFontMetrics metrics = figures_->horizontalHeader()->fontMetrics();
    for (size_t i = 0; i < c.runs.size(); ++i) {
        auto* head = new QTableWidgetItem(run_label(c.runs[i], metrics));
        head->setToolTip(run_title(c.runs[i]));
        figures_->setHorizontalHeaderItem(int(i) + 1, head);
    }
    figures_->setRowCount(int(c.figures.size()));
    for (int row = 0; row < int(c.figures.size()); ++row) {
        const auto& f = c.figures[size_t(row)];
        figures_->setItem(row, 0, item(figure_label(f.name)));
        for (size_t i = 0; i < f.values.size(); ++i) {
            auto* cell = item(cell_text(f, i), change_color(cell_change(f, i)));
            if (f.judged() && i > 0) {
                cell->setToolTip(tr("%1 against #%2: %3")
                                     .arg(figure_label(f.name))
                                     .arg(c.runs.front().id)
                                     .arg(QString::fromStdString(f.verdict[i])));
                if (f.verdict[i] == "same") cell->setForeground(QColor(110, 110, 110));
            }
            cell->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            cell->setData(Qt::UserRole, f.values[i]);
            cell->setData(Qt::UserRole + 1, f.delta_pct[i]);
            figures_->setItem(row, int(i) + 1, cell);
        }
    }
}

void CompareView::fillDifferences(const Comparison& c) {
    differences_->setColumnCount(int(c.runs.size()) + 2);
    differences_->setHorizontalHeaderLabels({tr("what"), tr("field")});
    const QFontMetrics metrics = differences_->horizontalHeader()->fontMetrics();
    for (size_t i = 0; i < c.runs.size(); ++i) {
        auto* head = new QTableWidgetItem(run_label(c.runs[i], metrics));
        head->setToolTip(run_title(c.runs[i]));
        differences_->setHorizontalHeaderItem(int(i) + 2, head);
    }
    const QColor differs(255, 242, 168);
    const auto add = [&](const QString& what, const std::vector<Comparison::Difference>& ds) {
        for (const auto& d : ds) {
            const int row = differences_->rowCount();
            differences_->insertRow(row);
            differences_->setItem(row, 0, item(what));
            differences_->setItem(row, 1, item(QString::fromStdString(d.field)));
            for (size_t i = 0; i < d.values.size(); ++i)
                differences_->setItem(row, int(i) + 2,
                                      item(QString::fromStdString(d.values[i]),
                                           d.values[i] != d.values.front() ? differs : QColor()));
        }
    };
    add(tr("spec"), c.spec_differences);
    add(tr("machine"), c.hardware_differences);
    if (differences_->rowCount() == 0) {
        differences_->insertRow(0);
        differences_->setItem(0, 0, item(tr("none")));
        differences_->setItem(0, 1, item(tr("same spec and machine")));
    }
}

void CompareView::fillOverTime(const CompareData& data) {
    const int throughput =
        overTime_->addPanel(tr("ops/s"), TimeChart::Scale::linear, tr("Throughput"));
    const int p99 = overTime_->addPanel(tr("p99 (ms)"), TimeChart::Scale::log, tr("p99"));
    const int p50 = overTime_->addPanel(tr("p50 (ms)"), TimeChart::Scale::log, tr("p50"));
    const QFontMetrics metrics(overTime_->legend(throughput)->font());
    for (size_t r = 0; r < data.curves.size(); ++r) {
        const RunCurves& c = data.curves[r];
        const QString name = run_label(data.comparison.runs[r], metrics);
        const QColor color = run_color(r);
        QCPGraph* graphs[] = {overTime_->addSeries(throughput, name, color),
                              overTime_->addSeries(p99, name, color),
                              overTime_->addSeries(p50, name, color)};
        for (size_t i = 0; i < c.t_s.size(); ++i) {
            overTime_->append(graphs[0], c.t_s[i], c.throughput[i]);
            overTime_->append(graphs[1], c.t_s[i], c.p99_ms[i]);
            overTime_->append(graphs[2], c.t_s[i], c.p50_ms[i]);
        }
    }
    overTime_->refresh();
}

void CompareView::fillPercentiles(const CompareData& data) {
    const QFontMetrics metrics(percentiles_->plot()->legend->font());
    for (size_t r = 0; r < data.latency.size(); ++r) {
        if (r < data.bands.size()) percentiles_->addBand(run_color(r), data.bands[r]);
        percentiles_->addRun(run_label(data.comparison.runs[r], metrics), run_color(r),
                             data.latency[r]);
    }
}

QString CompareView::message() const {
    return message_->text();
}

bool CompareView::machinesWarningShown() const {
    return !banner_->isHidden();
}

bool CompareView::exportChart(Chart chart, const QString& path, int width, int height,
                              QString* error) {
    if (!comparison_) {
        *error = tr("nothing to export: no comparison is shown");
        return false;
    }
    return export_chart(chartPlot(chart), path, width, height, error, chartTitle(chart));
}

QCustomPlot* CompareView::chartPlot(Chart chart) const {
    return chart == Chart::overTime ? overTime_->plot() : percentiles_->plot();
}

QString CompareView::chartTitle(Chart chart) const {
    return (chart == Chart::overTime ? tr("Over time: %1") : tr("Latency distribution: %1"))
        .arg(runLabels_);
}

bool CompareView::exportReport(const QString& path, QString* error) {
    if (!comparison_) {
        *error = tr("nothing to export: no comparison is shown");
        return false;
    }
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    if (suffix == QLatin1String("pdf"))
        return write_comparison_pdf(*comparison_, *overTime_, percentiles_->plot(), runLabels_,
                                    path, error);
    const bool html = suffix == QLatin1String("html") || suffix == QLatin1String("htm");
    if (!html && suffix != QLatin1String("md")) {
        *error = tr("unknown report format \"%1\": use .md, .html or .pdf").arg(suffix);
        return false;
    }
    const QString base = info.completeBaseName();
    std::vector<ReportChart> images = {
        {tr("Throughput and latency over time").toStdString(),
         QString(base + QStringLiteral("-over-time.png")).toStdString()},
        {tr("Latency distribution").toStdString(),
         QString(base + QStringLiteral("-percentiles.png")).toStdString()}};
    const Chart charts[] = {Chart::overTime, Chart::percentiles};
    const int heights[] = {kOverTimeHeight, kPercentilesHeight};
    for (size_t i = 0; i < images.size(); ++i) {
        // HTML is one file to send, its charts inline; Markdown's sit beside it.
        if (html) {
            const QByteArray png =
                chart_png(chartPlot(charts[i]), kReportWidth, heights[i], chartTitle(charts[i]));
            images[i].path = "data:image/png;base64," + png.toBase64().toStdString();
        } else if (!exportChart(charts[i],
                                info.dir().filePath(QString::fromStdString(images[i].path)),
                                kReportWidth, heights[i], error)) {
            return false;
        }
    }
    const QString text =
        html ? comparison_html(*comparison_, images) : comparison_markdown(*comparison_, images);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        *error = tr("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void CompareView::exportReportDialog() {
    const QString path = ask_save_path(this, tr("Export comparison"),
                                       tr("Markdown (*.md);;HTML (*.html);;PDF (*.pdf)"),
                                       QStringLiteral("export/dir"));
    if (path.isEmpty()) return;
    QString error;
    if (!exportReport(path, &error)) QMessageBox::warning(this, tr("Cannot export"), error);
}

void CompareView::exportChartDialog(Chart chart) {
    if (!comparison_)
        return void(QMessageBox::warning(this, tr("Cannot export"),
                                         tr("nothing to export: no comparison is shown")));
    export_chart_dialog(this, chartPlot(chart), chartTitle(chart));
}

}  // namespace perflab
