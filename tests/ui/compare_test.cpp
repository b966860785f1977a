// SPDX-License-Identifier: MIT
// Two real runs stored by the real CLI against a real memcached, at different rates, compared
// in the compare view: its figures match compare_runs, the overlay has a point per stored
// tick, the percentile curves reach the nines the runs' counts allow, the rate difference is
// listed, a different machine raises the warning, and the report comes with its charts: beside
// a Markdown report, inline in the HTML one, drawn as vector graphics in the PDF one. Runs
// of one long name: their columns are told apart, the figures' names stay in view as the
// columns scroll, and the time axis shows the whole of the longest run.
#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QProgressBar>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "ab_dialog.h"
#include "compact_ticks.h"
#include "compare_data.h"
#include "compare_figures.h"
#include "compare_report.h"
#include "compare_view.h"
#include "http_test_server.h"
#include "memcached_server.h"
#include "pdf_text.h"
#include "percentile_chart.h"
#include "process.h"
#include "run_store.h"
#include "sqlite.h"
#include "time_chart.h"
#include "ui_tests.h"

using namespace perflab;

namespace {

constexpr int kAnswerMs = 20000;

std::string spec_text(const std::string& server, double rate, std::string name = {}) {
    if (name.empty()) name = "rate " + std::to_string(int(rate));
    const nlohmann::json j = {
        {"name", name},
        {"kind", "cache"},
        {"tick_ms", 200},
        {"phases", {{{"duration_s", 2.0}, {"rate", rate}, {"concurrency", 2}}}},
        {"cache",
         {{"servers", {server}},
          {"keys", {{"count", 1000}}},
          {"value_size", {{"min", 64}, {"max", 256}}}}}};
    return j.dump();
}

QString title(const RunInfo& r) {
    return QStringLiteral("#%1 %2").arg(r.id).arg(QString::fromStdString(r.name));
}

// A cell's highlight; invalid when it has none.
QColor highlight(const QTableWidgetItem* item) {
    return item->background().style() == Qt::NoBrush ? QColor() : item->background().color();
}

bool same(double a, double b) {
    return (std::isnan(a) && std::isnan(b)) || a == b;
}

// Points a run's stored ticks give the overlay: a stored drain is none.
int ticks_of(RunStore& store, int64_t id) {
    int n = 0;
    for (const auto& s : store.samples(id))
        n += s.interval_ms > 0 && !s.drain;
    return n;
}

QList<QCPGraph*> graphs_on(QCustomPlot* plot, const QString& axis_label) {
    QList<QCPGraph*> out;
    for (int i = 0; i < plot->graphCount(); ++i)
        if (plot->graph(i)->valueAxis()->label() == axis_label) out << plot->graph(i);
    return out;
}

// Points run `id` at a client machine of another name in a copy of the database.
void move_to_other_machine(const std::string& db, int64_t id) {
    Connection c(db, Connection::Mode::read_write);
    Statement read(c,
                   "SELECT h.profile_json FROM hosts h JOIN run_hosts rh ON rh.host_id = h.id "
                   "WHERE rh.run_id = ? AND rh.role = 'client'");
    read.bind(1, id);
    QVERIFY(read.step());
    auto profile = nlohmann::json::parse(read.text(0));
    while (read.step()) {
    }
    profile["hostname"] = "other-machine";
    profile["cores"] = profile.value("cores", 0) + 64;
    Statement insert(c, "INSERT INTO hosts (identity, hostname, profile_json) VALUES (?, ?, ?)");
    insert.bind(1, std::string_view("other-machine-identity"))
        .bind(2, std::string_view("other-machine"))
        .bind(3, std::string_view(profile.dump()))
        .run();
    Statement move(c, "UPDATE run_hosts SET host_id = ? WHERE run_id = ? AND role = 'client'");
    move.bind(1, c.last_insert_id()).bind(2, id).run();
}

}  // namespace

class CompareTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void figuresMatchCompareRuns();
    void overlayHasOnePointPerTick();
    void percentilesReachTheNinesOfTheCount();
    void rateDifferenceIsListed();
    void differentMachinesRaiseTheWarning();
    void reportReferencesItsCharts();
    void htmlReportIsOneFile();
    void pdfReportNamesEveryRun();
    void chartsExport();
    void badInputShowsAMessage();
    void longNamesLeaveEveryColumnInView();
    void sameLongNamesGetDistinctLabels();
    void figureNamesStayInViewScrolledRight();
    void timeAxisShowsTheLongestRun();
    void abExperimentIsComparedAsTwoSeries();
    void prometheusSeriesAreListedAndJudged();

  private:
    // Three runs of one 80-character name, of 1, 2 and 3 s, compared at 1024×700.
    void compareSameLongNames();

    // A view that has shown the comparison of runs ids in db.
    void compared(CompareView& view, const QList<qint64>& ids);

    test::TempDir dir_;
    std::string db_ = dir_.file("runs.db");
    int64_t slow_ = 0, fast_ = 0;
    std::unique_ptr<CompareView> view_;
    test::TempDir sameDir_;
    std::string sameDb_ = sameDir_.file("same.db");
    std::unique_ptr<CompareView> same_;
};

void CompareTest::initTestCase() {
    test::MemcachedServer server;
    for (const double rate : {500.0, 1500.0}) {
        const std::string spec = "rate" + std::to_string(int(rate)) + ".json";
        dir_.write(spec, spec_text(server.endpoint(), rate));
        const test::Output out =
            test::run({PERFLAB_BINARY, "run", dir_.file(spec), "--db", db_, "-q"}, 60);
        QVERIFY2(out.code == 0, out.err.c_str());
    }
    RunStore store(db_, Access::read);
    const auto runs = store.list();
    QCOMPARE(runs.size(), size_t(2));
    slow_ = runs[1].id;  // the list is newest first
    fast_ = runs[0].id;
    QCOMPARE(runs[1].name, std::string("rate 500"));
    view_ = std::make_unique<CompareView>(db_);
    view_->resize(1200, 800);
    compared(*view_, {slow_, fast_});
}

void CompareTest::compared(CompareView& view, const QList<qint64>& ids) {
    QSignalSpy done(&view, &CompareView::compared);
    QSignalSpy failed(&view, &CompareView::failed);
    view.compare(ids);
    QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, kAnswerMs);
    QVERIFY2(failed.isEmpty(), qPrintable(view.message()));
    QVERIFY(view.comparison().has_value());
}

void CompareTest::figuresMatchCompareRuns() {
    RunStore store(db_, Access::read);
    const Comparison expected = compare_runs(store, {slow_, fast_});
    const QTableWidget* table = view_->figuresTable();
    QCOMPARE(table->columnCount(), 3);
    QCOMPARE(table->horizontalHeaderItem(1)->text(), title(store.info(slow_)));
    QCOMPARE(table->horizontalHeaderItem(1)->toolTip(), title(store.info(slow_)));
    QCOMPARE(table->horizontalHeaderItem(2)->toolTip(), title(store.info(fast_)));
    QVERIFY(view_->message().contains(title(store.info(fast_))));
    QCOMPARE(table->rowCount(), int(expected.figures.size()));
    bool sawThroughput = false;
    for (int row = 0; row < table->rowCount(); ++row) {
        const auto& f = expected.figures[size_t(row)];
        QCOMPARE(table->item(row, 0)->text(), figure_label(f.name));
        for (int run = 0; run < 2; ++run) {
            const QTableWidgetItem* cell = table->item(row, run + 1);
            QVERIFY2(same(cell->data(Qt::UserRole).toDouble(), f.values[size_t(run)]),
                     f.name.c_str());
            QVERIFY(cell->text().startsWith(figure_value(f.name, f.values[size_t(run)])));
        }
        const QTableWidgetItem* second = table->item(row, 2);
        QVERIFY(same(second->data(Qt::UserRole + 1).toDouble(), f.delta_pct[1]));
        QCOMPARE(second->text(), cell_text(f, 1));
        if (f.judged() && f.ci[1])
            QVERIFY2(second->text().contains(QLatin1Char('[')), qPrintable(second->text()));
        QCOMPARE(highlight(second), change_color(cell_change(f, 1)));
        // Only what the statistics judged is coloured (an eviction count's -4.4% was green).
        if (!f.judged()) QCOMPARE(highlight(second), QColor());
        if (f.name == "ops") {
            QCOMPARE(f.values[0], double(store.info(slow_).figures.ops));
            QCOMPARE(f.values[1], double(store.info(fast_).figures.ops));
        }
        if (f.name == "throughput") {
            sawThroughput = true;
            // Three times the rate: well over +50%, beyond the noise, and shown as better.
            QVERIFY2(f.delta_pct[1] > 50, qPrintable(second->text()));
            QCOMPARE(f.verdict[1], std::string("better"));
            QCOMPARE(highlight(second), change_color(Change::better));
        }
    }
    QVERIFY(sawThroughput);
}

void CompareTest::overlayHasOnePointPerTick() {
    RunStore store(db_, Access::read);
    QCustomPlot* plot = view_->overTimeChart()->plot();
    for (const char* axis : {"ops/s", "p99 (ms)", "p50 (ms)"}) {
        const QList<QCPGraph*> graphs = graphs_on(plot, QString::fromLatin1(axis));
        QCOMPARE(graphs.size(), 2);
        for (int i = 0; i < 2; ++i) {
            const int64_t id = i == 0 ? slow_ : fast_;
            QCOMPARE(graphs[i]->name(), title(store.info(id)));
            const int ticks = ticks_of(store, id);
            QVERIFY(ticks >= 8);  // 2 s at 200 ms
            QCOMPARE(graphs[i]->dataCount(), ticks);
        }
    }
    // The first tick's throughput, and both runs start at the same place on the axis.
    const auto samples = store.samples(fast_);
    const auto first = std::find_if(samples.begin(), samples.end(),
                                    [](const IntervalSample& s) { return s.interval_ms > 0; });
    const QCPGraph* fast = graphs_on(plot, QStringLiteral("ops/s"))[1];
    QCOMPARE(fast->data()->at(0)->value, double(first->total_ops()) / first->seconds());
    QCOMPARE(fast->data()->at(0)->key, first->seconds());
}

void CompareTest::percentilesReachTheNinesOfTheCount() {
    RunStore store(db_, Access::read);
    QCustomPlot* plot = view_->percentileChart()->plot();
    // Per run: its band's lower and upper bound, then its curve.
    QCOMPARE(plot->graphCount(), 6);
    QCOMPARE(view_->percentileChart()->bands(), 2);
    QCOMPARE(plot->xAxis->scaleType(), QCPAxis::stLogarithmic);
    const auto ticker = plot->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().value(1e5), QStringLiteral("99.999%"));
    QCOMPARE(ticker->ticks().value(100), QStringLiteral("99%"));
    for (int i = 0; i < 2; ++i) {
        const int64_t id = i == 0 ? slow_ : fast_;
        const Histogram h = store.summary(id).overall.totals.latency();
        QVERIFY(h.count() > 500);
        const QCPGraph* g = plot->graph(3 * i + 2);
        QCOMPARE(g->name(), title(store.info(id)));
        // The run's p50 and p99 lie inside its 95% band.
        for (const double x : {2.0, 100.0}) {
            const double value = g->data()->findBegin(x, false)->value;
            QVERIFY(plot->graph(3 * i)->data()->findBegin(x, false)->value <= value);
            QVERIFY(plot->graph(3 * i + 1)->data()->findBegin(x, false)->value >= value);
        }
        QCOMPARE(g->data()->at(0)->key, 1.0);
        QCOMPARE(g->data()->at(0)->value, double(h.percentile(0)) / 1000.0);
        const double last = std::min(PercentileChart::kMaxNines, double(h.count()));
        const auto end = g->data()->at(g->dataCount() - 1);
        QCOMPARE(end->key, last);
        QCOMPARE(end->value, double(h.percentile(PercentileChart::percentile_at(last))) / 1000.0);
        // p99 on the curve is the table's p99.
        auto p99 = g->data()->findBegin(100, false);
        QCOMPARE(p99->key, 100.0);
        QCOMPARE(p99->value, double(h.percentile(99)) / 1000.0);
        for (int k = 1; k < g->dataCount(); ++k)
            QVERIFY(g->data()->at(k)->value >= g->data()->at(k - 1)->value);
        // The tooltip at 99% names each run's p99.
        const QString tip = view_->percentileChart()->tooltipAt(100);
        QVERIFY2(tip.startsWith(QStringLiteral("99.00%")), qPrintable(tip));
        QVERIFY2(tip.contains(title(store.info(id)) + QStringLiteral(": ") +
                              compact_ms(double(h.percentile(99)) / 1000.0)),
                 qPrintable(tip));
    }
}

void CompareTest::rateDifferenceIsListed() {
    RunStore store(db_, Access::read);
    const Comparison expected = compare_runs(store, {slow_, fast_});
    const QTableWidget* table = view_->differencesTable();
    int rateRow = -1;
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, 1)->text() == QStringLiteral("/phases/0/rate")) rateRow = row;
    QVERIFY(rateRow >= 0);
    QCOMPARE(table->item(rateRow, 0)->text(), QStringLiteral("spec"));
    QVERIFY(table->item(rateRow, 2)->text().startsWith(QStringLiteral("500")));
    QVERIFY(table->item(rateRow, 3)->text().startsWith(QStringLiteral("1500")));
    QVERIFY(highlight(table->item(rateRow, 3)).isValid());
    QVERIFY(!highlight(table->item(rateRow, 2)).isValid());
    QCOMPARE(table->rowCount(),
             int(expected.spec_differences.size() + expected.hardware_differences.size()));
    QVERIFY(!expected.different_machines);
    QVERIFY(!view_->machinesWarningShown());
}

void CompareTest::differentMachinesRaiseTheWarning() {
    const std::string copy = dir_.file("moved.db");
    for (const char* suffix : {"", "-wal"})
        if (QFile::exists(QString::fromStdString(db_ + suffix)))
            QVERIFY(QFile::copy(QString::fromStdString(db_ + suffix),
                                QString::fromStdString(copy + suffix)));
    move_to_other_machine(copy, fast_);
    CompareView view(copy);
    compared(view, {slow_, fast_});
    QVERIFY(view.comparison()->different_machines);
    QVERIFY(view.machinesWarningShown());
    bool hostnameRow = false;
    const QTableWidget* table = view.differencesTable();
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, 1)->text() == QStringLiteral("/hostname")) {
            hostnameRow = true;
            QCOMPARE(table->item(row, 0)->text(), QStringLiteral("machine"));
            QCOMPARE(table->item(row, 3)->text(), QStringLiteral("\"other-machine\""));
        }
    QVERIFY(hostnameRow);
    QTemporaryDir out;
    QString error;
    const QString report = out.filePath(QStringLiteral("moved.md"));
    QVERIFY2(view.exportReport(report, &error), qPrintable(error));
    QFile file(report);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("different machines"));
}

void CompareTest::reportReferencesItsCharts() {
    const QString name = QStringLiteral("report.md");
    const QString reference = QStringLiteral("](%1)");
    QTemporaryDir out;
    QString error;
    QVERIFY2(view_->exportReport(out.filePath(name), &error), qPrintable(error));
    QFile file(out.filePath(name));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    const QString base = QFileInfo(name).completeBaseName();
    for (const char* chart : {"-over-time.png", "-percentiles.png"}) {
        const QString png = base + QString::fromLatin1(chart);
        QVERIFY2(text.contains(reference.arg(png)), qPrintable(png));
        const QImage image(out.filePath(png));
        QVERIFY2(!image.isNull(), qPrintable(png));
        QVERIFY(QFileInfo(out.filePath(png)).size() > 1000);
    }
    const Comparison& c = *view_->comparison();
    QVERIFY(text.contains(QStringLiteral("/phases/0/rate")));
    for (const auto& f : c.figures)
        if (f.name == "throughput") {
            QVERIFY(text.contains(figure_value(f.name, f.values[0])));
            QVERIFY(text.contains(delta_text(f.delta_pct[1])));
        }
    QVERIFY(!text.contains(QStringLiteral("different machines")));
}

// The HTML report is one file to send: its two charts inline as PNGs, nothing written beside it
// and nothing referenced there.
void CompareTest::htmlReportIsOneFile() {
    QTemporaryDir out;
    QString error;
    QVERIFY2(view_->exportReport(out.filePath(QStringLiteral("report.html")), &error),
             qPrintable(error));
    QCOMPARE(QDir(out.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot),
             QStringList{QStringLiteral("report.html")});
    QFile file(out.filePath(QStringLiteral("report.html")));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    const QString inline_png = QStringLiteral("data:image/png;base64,");
    int images = 0;
    for (auto it =
             QRegularExpression(QStringLiteral("(?:src|href)=\"([^\"]*)\"")).globalMatch(text);
         it.hasNext();) {
        const QString source = it.next().captured(1);
        QVERIFY2(source.startsWith(inline_png), qPrintable(source.left(80)));
        const QImage image = QImage::fromData(
            QByteArray::fromBase64(source.mid(inline_png.size()).toLatin1()), "PNG");
        QVERIFY(!image.isNull());
        QVERIFY(image.width() > 1000);
        ++images;
    }
    QCOMPARE(images, 2);
    QVERIFY(text.contains(QStringLiteral("/phases/0/rate")));
}

// The PDF report: every run by its label, every page numbered, the key figures and each chart
// panel titled, the charts as vector graphics (no raster image in the file).
void CompareTest::pdfReportNamesEveryRun() {
    QTemporaryDir out;
    const QString path = out.filePath(QStringLiteral("report.pdf"));
    QString error;
    QVERIFY2(view_->exportReport(path, &error), qPrintable(error));
    const int pages = test::pdf_pages(path);
    QVERIFY2(pages >= 2, qPrintable(QString::number(pages)));
    QString all;
    for (int page = 1; page <= pages; ++page) {
        const QString text = test::pdf_text(path, page);
        QVERIFY2(text.contains(QStringLiteral("page %1 of %2").arg(page).arg(pages)),
                 qPrintable(text));
        all += text;
    }
    for (const auto& r : view_->comparison()->runs)
        QVERIFY2(all.contains(title(r)), qPrintable(title(r)));
    for (const char* heading :
         {"Key figures", "Throughput (ops/s) — ", "p99 (ms) — ", "p50 (ms) — ",
          "Latency distribution — ", "Spec differences", "/phases/0/rate"})
        QVERIFY2(all.contains(QString::fromUtf8(heading)),
                 qPrintable(QString::fromUtf8(heading) + QStringLiteral(" not in:\n") + all));
    const QStringList images = test::pdf_images(path);
    QVERIFY2(images.isEmpty(), qPrintable(images.join(QLatin1Char('\n'))));
}

void CompareTest::chartsExport() {
    QTemporaryDir out;
    const struct {
        const char* file;
        QByteArray magic;
    } formats[] = {{"p.png", "\x89PNG"}, {"p.pdf", "%PDF-"}, {"p.svg", "<?xml"}};
    for (const auto chart : {CompareView::Chart::overTime, CompareView::Chart::percentiles})
        for (const auto& f : formats) {
            const QString path = out.filePath(QString::fromLatin1(f.file));
            QString error;
            QVERIFY2(view_->exportChart(chart, path, 900, 600, &error), qPrintable(error));
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            QVERIFY(bytes.size() > 1000);
            QVERIFY(bytes.startsWith(f.magic));
        }
}

void CompareTest::badInputShowsAMessage() {
    CompareView view(db_);
    QSignalSpy failed(&view, &CompareView::failed);
    view.compare({slow_});
    QCOMPARE(failed.count(), 1);
    QVERIFY2(view.message().contains(QStringLiteral("at least two")), qPrintable(view.message()));

    compared(view, {slow_, fast_});
    QVERIFY(view.figuresTable()->rowCount() > 0);
    view.compare({slow_, 987654});
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 2, kAnswerMs);
    QVERIFY2(view.message().contains(QStringLiteral("987654")), qPrintable(view.message()));
    QCOMPARE(view.figuresTable()->rowCount(), 0);  // the earlier runs are not left on show
    QVERIFY(!view.comparison());
    QString error;
    QVERIFY(!view.exportReport(QDir::temp().filePath(QStringLiteral("never.md")), &error));
    QVERIFY(error.contains(QStringLiteral("no comparison")));

    view.compare({});
    QCOMPARE(failed.count(), 3);
    QVERIFY(view.message().contains(QStringLiteral("got 0")));
}

// 80-character names at 1280×800: the names go to the legend and the header tooltips, so
// every run's value and change is on screen without scrolling sideways.
void CompareTest::longNamesLeaveEveryColumnInView() {
    test::MemcachedServer server;
    test::TempDir dir;
    const std::string db = dir.file("long.db");
    for (const char* tail : {"A", "B"}) {
        const std::string name = std::string(79, 'x') + tail;
        dir.write("spec.json", spec_text(server.endpoint(), 500, name));
        const test::Output out =
            test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "-q"}, 60);
        QVERIFY2(out.code == 0, out.err.c_str());
    }
    CompareView view(db);
    view.resize(1280, 800);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    compared(view, {1, 2});
    QTableWidget* table = view.figuresTable();
    QCoreApplication::processEvents();
    const QRect visible = table->viewport()->rect();
    for (int row = 0; row < table->rowCount(); ++row)
        for (int column = 1; column < table->columnCount(); ++column) {
            const QRect cell = table->visualItemRect(table->item(row, column));
            QVERIFY2(visible.left() <= cell.left() && cell.right() <= visible.right(),
                     qPrintable(QStringLiteral("row %1 column %2: %3")
                                    .arg(row)
                                    .arg(column)
                                    .arg(table->item(row, column)->text())));
        }
    QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
}

void CompareTest::compareSameLongNames() {
    if (same_) return;
    test::MemcachedServer server;
    // Wide letters: a legend entry of the whole name is wider than the chart at 1024.
    const std::string name(80, 'W');
    for (const double seconds : {1.0, 2.0, 3.0}) {
        nlohmann::json spec = nlohmann::json::parse(spec_text(server.endpoint(), 300, name));
        spec["phases"][0]["duration_s"] = seconds;
        sameDir_.write("spec.json", spec.dump());
        const test::Output out = test::run(
            {PERFLAB_BINARY, "run", sameDir_.file("spec.json"), "--db", sameDb_, "-q"}, 60);
        QVERIFY2(out.code == 0, out.err.c_str());
    }
    same_ = std::make_unique<CompareView>(sameDb_);
    same_->resize(1024, 700);
    same_->show();
    QVERIFY(QTest::qWaitForWindowExposed(same_.get()));
    compared(*same_, {1, 2, 3});
}

// "#1 WWW…WWW" and "#2 WWW…WWW": the id and both ends of the name, the whole in the tooltip,
// in the table's headings and the charts' legends alike.
void CompareTest::sameLongNamesGetDistinctLabels() {
    compareSameLongNames();
    if (QTest::currentTestFailed()) return;
    QVERIFY(same_);
    RunStore store(sameDb_, Access::read);
    const QTableWidget* table = same_->figuresTable();
    QCOMPARE(table->columnCount(), 4);
    QSet<QString> labels;
    for (int column = 1; column < 4; ++column) {
        const QTableWidgetItem* head = table->horizontalHeaderItem(column);
        const QString text = head->text();
        QVERIFY2(text.startsWith(QStringLiteral("#%1 WWW").arg(column)), qPrintable(text));
        QVERIFY2(text.contains(QChar(0x2026)) && text.endsWith(QStringLiteral("WWW")),
                 qPrintable(text));
        QCOMPARE(head->toolTip(), title(store.info(column)));
        labels << text;
    }
    QCOMPARE(labels.size(), 3);
    // The names above the table are elided too: the view keeps the width it was given.
    QCoreApplication::sendPostedEvents();
    QCOMPARE(same_->width(), 1024);
    QSet<QString> legend;
    for (QCPGraph* g : graphs_on(same_->overTimeChart()->plot(), QStringLiteral("ops/s")))
        legend << g->name();
    QCOMPARE(legend.size(), 3);
    for (const QString& name : legend)
        QVERIFY2(name.contains(QChar(0x2026)), qPrintable(name));
}

// Scrolled right to the last run's column, the figures' names are still on the left, beside
// the cells of their rows.
void CompareTest::figureNamesStayInViewScrolledRight() {
    compareSameLongNames();
    if (QTest::currentTestFailed()) return;
    QVERIFY(same_);
    QTableWidget* table = same_->figuresTable();
    auto* frozen = table->findChild<QTableView*>(QStringLiteral("frozenColumn"));
    QVERIFY(frozen);
    QScrollBar* sideways = table->horizontalScrollBar();
    QTRY_VERIFY2(sideways->maximum() > 0, "three runs' columns overflow the table at 1024");
    sideways->setValue(sideways->maximum());
    QVERIFY(table->columnViewportPosition(0) < 0);  // the table's own first column: gone
    QVERIFY(frozen->isVisible());
    QCOMPARE(frozen->geometry().left(), table->viewport()->geometry().left());
    QCOMPARE(frozen->width(), table->columnWidth(0));
    QCOMPARE(frozen->horizontalHeader()->height(), table->horizontalHeader()->height());
    const QModelIndex first = frozen->indexAt(QPoint(4, 4));
    QCOMPARE(first.column(), 0);
    QCOMPARE(first.row(), table->rowAt(4));
    QCOMPARE(first.data().toString(), table->item(first.row(), 0)->text());
    // Scrolled down too, the names stay beside their rows.
    table->verticalScrollBar()->setValue(table->verticalScrollBar()->maximum());
    QCOMPARE(frozen->verticalScrollBar()->value(), table->verticalScrollBar()->value());
    QCOMPARE(frozen->rowAt(4), table->rowAt(4));
    // A cell scrolled to lands beside the names, not under them.
    sideways->setValue(sideways->maximum());
    table->scrollTo(table->model()->index(0, 1));
    QVERIFY(table->columnViewportPosition(1) >= table->columnWidth(0));
}

// The longest run (3 s) ends on the time axis, and the axis is on screen up to there.
void CompareTest::timeAxisShowsTheLongestRun() {
    compareSameLongNames();
    if (QTest::currentTestFailed()) return;
    QVERIFY(same_);
    RunStore store(sameDb_, Access::read);
    double longest = 0;
    for (int64_t id = 1; id <= 3; ++id)
        longest = std::max(longest, curves_of(store.samples(id)).t_s.back());
    QVERIFY(longest > 2.5);
    TimeChart* chart = same_->overTimeChart();
    QWidget* view = chart->plot()->parentWidget();  // the chart's scroll area's viewport
    QTRY_VERIFY(chart->plot()->width() > 0 && chart->plot()->width() <= view->width());
    for (int panel = 0; panel < chart->panelCount(); ++panel) {
        QCPAxis* time = chart->axisRect(panel)->axis(QCPAxis::atBottom);
        QVERIFY2(time->range().upper >= longest,
                 qPrintable(QStringLiteral("%1 < %2").arg(time->range().upper).arg(longest)));
        QVERIFY2(chart->axisRect(panel)->right() <= view->width(),
                 qPrintable(QStringLiteral("panel %1 ends at %2 of %3 px")
                                .arg(panel)
                                .arg(chart->axisRect(panel)->right())
                                .arg(view->width())));
    }
}

// Run → Compare two specs (A/B)…: the real `perflab ab` in a process of its own, its progress
// counted from its lines, then its two series compared, each side all of its runs.
void CompareTest::abExperimentIsComparedAsTwoSeries() {
    test::MemcachedServer server;
    test::TempDir dir;
    // Sets only: a cache-aside run's throughput follows its hit rate, which grows from run to
    // run on one memcached, and two runs a side would rightly call that noise.
    for (const auto& [file, rate] : {std::pair{"a.json", 500.0}, std::pair{"b.json", 1500.0}}) {
        auto spec = nlohmann::json::parse(spec_text(server.endpoint(), rate, file));
        spec["cache"]["workload"] = "set-only";
        dir.write(file, spec.dump());
    }
    const std::string db = dir.file("ab.db");
    AbDialog dialog(db, QString::fromStdString(PERFLAB_BINARY));
    dialog.setSpecs(QString::fromStdString(dir.file("a.json")),
                    QString::fromStdString(dir.file("b.json")));
    dialog.setRepeat(2);
    QSignalSpy finished(&dialog, &AbDialog::experimentFinished);
    dialog.start();
    QCOMPARE(dialog.progress()->maximum(), 4);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    QCOMPARE(dialog.progress()->value(), 4);
    const auto a = finished.at(0).at(0).value<QList<qint64>>();
    const auto b = finished.at(0).at(1).value<QList<qint64>>();
    QCOMPARE(a.size(), 2);
    QCOMPARE(b.size(), 2);
    // A B B A: the first and last runs are A's.
    QCOMPARE(a, (QList<qint64>{1, 4}));
    QCOMPARE(b, (QList<qint64>{2, 3}));

    CompareView view(db);
    QSignalSpy done(&view, &CompareView::compared);
    QSignalSpy failed(&view, &CompareView::failed);
    view.compareSeries(a, b);
    QTRY_VERIFY_WITH_TIMEOUT(done.count() + failed.count() > 0, kAnswerMs);
    QVERIFY2(failed.isEmpty(), qPrintable(view.message()));
    const Comparison& c = *view.comparison();
    QCOMPARE(c.sides, (std::vector<std::vector<int64_t>>{{1, 4}, {2, 3}}));
    QCOMPARE(c.scope, std::string("between-runs"));
    const auto throughput = std::find_if(c.figures.begin(), c.figures.end(),
                                         [](const auto& f) { return f.name == "throughput"; });
    QVERIFY(throughput != c.figures.end());
    QCOMPARE(throughput->verdict.at(1), std::string("better"));
}

// Two HTTP runs, each probing a page this test serves: a gauge at 10 in the first run and 20 in
// the second, another at 7 in both. The view lists both series' mean and max with each run's
// value, the one that changed marked as differing, the steady one not; so does the report.
void CompareTest::prometheusSeriesAreListedAndJudged() {
    test::TempDir dir;
    const std::string db = dir.file("prometheus.db");
    test::HttpTestServer server;
    const std::string url = server.url("/metrics");
    for (const int queue : {10, 20}) {
        server.set_reply_body("# TYPE perflab_test_queue gauge\nperflab_test_queue{pool=\"a\"} " +
                              std::to_string(queue) +
                              "\n# TYPE perflab_test_steady gauge\nperflab_test_steady 7\n");
        const nlohmann::json spec = {
            {"name", "queue " + std::to_string(queue)},
            {"kind", "http"},
            {"tick_ms", 250},
            {"phases", {{{"duration_s", 1.5}, {"rate", 20}}}},
            {"http", {{"targets", {{{"url", server.url("/")}}}}, {"threads", 1}}},
            {"probes",
             {{{"prometheus", url}, {"metrics", {"perflab_test_queue", "perflab_test_steady"}}}}}};
        dir.write("spec.json", spec.dump());
        const test::Output out =
            test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "-q"}, 60);
        QVERIFY2(out.code == 0, (out.out + out.err).c_str());
    }
    CompareView view(db);
    view.resize(1200, 800);
    compared(view, {1, 2});
    const QTableWidget* table = view.figuresTable();
    const auto row_of = [table](const QString& label) {
        for (int row = 0; row < table->rowCount(); ++row)
            if (table->item(row, 0)->text() == label) return row;
        return -1;
    };
    const QString prefix = QStringLiteral("prometheus ") + QString::fromStdString(url);
    for (const char* figure : {" mean", " max"}) {
        const int queue = row_of(prefix + QStringLiteral(" perflab_test_queue{pool=\"a\"}") +
                                 QLatin1String(figure));
        const int steady =
            row_of(prefix + QStringLiteral(" perflab_test_steady") + QLatin1String(figure));
        QVERIFY2(queue >= 0 && steady >= 0, figure);
        QCOMPARE(table->item(queue, 1)->data(Qt::UserRole).toDouble(), 10.0);
        QCOMPARE(table->item(queue, 2)->data(Qt::UserRole).toDouble(), 20.0);
        QCOMPARE(table->item(queue, 1)->text(), QStringLiteral("10.000"));
        QCOMPARE(table->item(queue, 2)->text(), QStringLiteral("20.000 (+100.0%, differs)"));
        QCOMPARE(highlight(table->item(queue, 2)), change_color(Change::differs));
        QCOMPARE(table->item(steady, 2)->data(Qt::UserRole).toDouble(), 7.0);
        QCOMPARE(table->item(steady, 2)->text(), QStringLiteral("7.000 (+0.0%)"));
        QCOMPARE(highlight(table->item(steady, 2)), QColor());
    }
    // The report's table is the view's, coloured the same way.
    const QString html = comparison_html(*view.comparison(), {});
    QVERIFY2(html.contains(QStringLiteral("<td class=\"differs\">20.000 (+100.0%, differs)</td>")),
             qPrintable(html));
    QVERIFY2(html.contains(QStringLiteral("perflab_test_steady mean</td><td class=\"\">7.000</td>"
                                          "<td class=\"\">7.000 (+0.0%)</td>")),
             qPrintable(html));
}

int run_compare_test(int argc, char** argv) {
    CompareTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "compare_test.moc"
