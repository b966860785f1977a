// SPDX-License-Identifier: MIT
// A chart exports to valid, non-empty PNG, PDF and SVG files at the size asked for, headed by
// its title, clear of the image's edges, without the crosshair; an empty chart is refused.
// A run's PDF report (a real SLO run with probes and a note, stored by the CLI against a real
// memcached) opens with its summary, numbers every page, keeps its SLO table on one page and
// draws each chart panel as vector graphics with its own title; marker labels do not overlap.
#include "chart_export.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <functional>
#include <nlohmann/json.hpp>

#include "file_dialogs.h"
#include "live_charts.h"
#include "main_window.h"
#include "memcached_server.h"
#include "pdf_text.h"
#include "process.h"
#include "run_export.h"
#include "run_store.h"
#include "stored_run.h"
#include "time_chart.h"
#include "ui_tests.h"

using namespace perflab;

class ChartExportTest : public QObject {
    Q_OBJECT
  private slots:
    void writesValidFile_data();
    void writesValidFile();
    void unknownFormatIsRefused();
    void chosenFilterGivesTheSuffix();
    void pdfFilterAndBareNameWritesPdf();
    void saveSpecWithBareNameWritesJson();
    void crosshairIsLeftOut();
    void titleHeadsTheImage();
    void legendFitsTheImage();
    void emptyChartIsRefused();
    void emptyLiveChartIsRefusedWithAMessage();
    void runPdfReportIsPagedWithVectorPanels();
    void markerLabelsAreStaggered();

  private:
    static void fill(TimeChart& chart) {
        const int panel = chart.addPanel(QStringLiteral("ops/s"));
        QCPGraph* g = chart.addSeries(panel, QStringLiteral("get"), Qt::blue);
        for (int t = 1; t <= 60; ++t)
            chart.append(g, t, 1000.0 + 10 * t);
        chart.addMarker(30, QStringLiteral("phase 2"), Qt::darkBlue);
        chart.refresh();
    }
};

void ChartExportTest::writesValidFile_data() {
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QByteArray>("magic");
    QTest::newRow("png") << "png" << QByteArray("\x89PNG");
    QTest::newRow("pdf") << "pdf" << QByteArray("%PDF-");
    QTest::newRow("svg") << "svg" << QByteArray("<?xml");
}

void ChartExportTest::writesValidFile() {
    QFETCH(QString, suffix);
    QFETCH(QByteArray, magic);
    TimeChart chart;
    chart.resize(800, 500);
    fill(chart);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("chart.") + suffix);
    QString error;
    QVERIFY2(export_chart(chart.plot(), path, 1200, 700, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.size() > 1000);
    QVERIFY2(bytes.startsWith(magic), bytes.left(16).constData());
    if (suffix == QLatin1String("png")) {
        const QImage image(path);
        QCOMPARE(image.size(), QSize(1200, 700));
    } else if (suffix == QLatin1String("pdf")) {
        QVERIFY(bytes.contains("%%EOF"));
    } else {
        QSvgRenderer svg(path);
        QVERIFY(svg.isValid());
        QCOMPARE(svg.viewBox().size(), QSize(1200, 700));
    }
}

void ChartExportTest::unknownFormatIsRefused() {
    TimeChart chart;
    fill(chart);
    QTemporaryDir dir;
    QString error;
    QVERIFY(
        !export_chart(chart.plot(), dir.filePath(QStringLiteral("chart.bmpx")), 100, 100, &error));
    QVERIFY(error.contains(QStringLiteral("bmpx")));
}

namespace {

// Answers each modal dialog as it opens, as a user would: in a file dialog, picks the filter
// from its list and types the name; in an input dialog, types the text. Runs while the code
// under test waits in the dialog's exec().
class DialogAnswers {
  public:
    DialogAnswers(QString filter, QString name, QString text = {})
        : filter_(std::move(filter)), name_(std::move(name)), text_(std::move(text)) {
        QObject::connect(&timer_, &QTimer::timeout, [this] { answer(); });
        timer_.start(20);
    }
    int answered() const { return answered_; }

  private:
    void answer() {
        QWidget* modal = QApplication::activeModalWidget();
        if (auto* files = qobject_cast<QFileDialog*>(modal)) {
            auto* types = files->findChild<QComboBox*>(QStringLiteral("fileTypeCombo"));
            const int index = types->findText(filter_);
            types->setCurrentIndex(index);
            emit types->activated(index);
            emit types->textActivated(filter_);
            auto* edit = files->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
            edit->setText(name_);
            QTest::keyClick(edit, Qt::Key_Return);
            ++answered_;
        } else if (auto* input = qobject_cast<QInputDialog*>(modal)) {
            input->setTextValue(text_);
            input->accept();
            ++answered_;
        }
    }

    QString filter_, name_, text_;
    QTimer timer_;
    int answered_ = 0;
};

QByteArray head(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.read(16) : QByteArray();
}

}  // namespace

void ChartExportTest::chosenFilterGivesTheSuffix() {
    const QString filters = QStringLiteral("PNG image (*.png);;PDF (*.pdf);;SVG (*.svg)");
    const QString pdf = QStringLiteral("PDF (*.pdf)");
    QCOMPARE(with_filter_suffix(QStringLiteral("/t/chart"), filters, pdf),
             QStringLiteral("/t/chart.pdf"));
    QCOMPARE(with_filter_suffix(QStringLiteral("/t/run.v2"), filters, pdf),
             QStringLiteral("/t/run.v2.pdf"));
    QCOMPARE(with_filter_suffix(QStringLiteral("/t/chart.PNG"), filters, pdf),
             QStringLiteral("/t/chart.PNG"));
}

void ChartExportTest::pdfFilterAndBareNameWritesPdf() {
    TimeChart chart;
    fill(chart);
    QTemporaryDir dir;
    QSettings().setValue(QStringLiteral("export/dir"), dir.path());
    DialogAnswers answers(QStringLiteral("PDF (*.pdf)"), QStringLiteral("chart"),
                          QStringLiteral("800x600"));
    export_chart_dialog(nullptr, chart.plot());
    QCOMPARE(answers.answered(), 2);
    QVERIFY2(head(dir.filePath(QStringLiteral("chart.pdf"))).startsWith("%PDF-"),
             qPrintable(QDir(dir.path()).entryList().join(QLatin1Char(' '))));
}

void ChartExportTest::saveSpecWithBareNameWritesJson() {
    QTemporaryDir dir;
    QSettings().setValue(QStringLiteral("spec/dir"), dir.path());
    MainWindow window;
    QAction* save = nullptr;
    for (auto* action : window.findChildren<QAction*>())
        if (action->text().startsWith(QStringLiteral("Save spec &as"))) save = action;
    QVERIFY(save);
    DialogAnswers answers(QStringLiteral("Run specs (*.json)"), QStringLiteral("specB"));
    save->trigger();
    QCOMPARE(answers.answered(), 1);
    QFile spec(dir.filePath(QStringLiteral("specB.json")));
    QVERIFY2(spec.open(QIODevice::ReadOnly),
             qPrintable(QDir(dir.path()).entryList().join(QLatin1Char(' '))));
    QVERIFY(nlohmann::json::parse(spec.readAll().toStdString(), nullptr, false).is_object());
}

// The crosshair shows where the mouse was when Export was chosen: the image is the same with
// and without it, and it is back on screen afterwards.
void ChartExportTest::crosshairIsLeftOut() {
    TimeChart chart;
    chart.resize(800, 500);
    fill(chart);
    QTemporaryDir dir;
    const QString without = dir.filePath(QStringLiteral("without.png"));
    const QString with = dir.filePath(QStringLiteral("with.png"));
    QString error;
    QVERIFY2(export_chart(chart.plot(), without, 900, 600, &error), qPrintable(error));
    chart.showCrosshair(20);
    QVERIFY(chart.crosshairVisible());
    QVERIFY2(export_chart(chart.plot(), with, 900, 600, &error), qPrintable(error));
    QVERIFY(chart.crosshairVisible());
    const QImage a(without), b(with);
    QVERIFY(!a.isNull());
    QVERIFY2(a == b, "the crosshair was drawn into the export");
}

// The title is drawn as text (an SVG's <text>, besides its <title>), above the plot.
void ChartExportTest::titleHeadsTheImage() {
    TimeChart chart;
    fill(chart);
    QTemporaryDir dir;
    const QString title = QStringLiteral("nightly cache run 42");
    const QString svg = dir.filePath(QStringLiteral("titled.svg"));
    QString error;
    QVERIFY2(export_chart(chart.plot(), svg, 900, 600, &error, title), qPrintable(error));
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY2(text.count(title) >= 2, qPrintable(text.left(400)));
    // In a PNG: the rows above the untitled image's first ink are no longer blank.
    const QString plain = dir.filePath(QStringLiteral("plain.png"));
    const QString titled = dir.filePath(QStringLiteral("titled.png"));
    QVERIFY2(export_chart(chart.plot(), plain, 900, 600, &error), qPrintable(error));
    QVERIFY2(export_chart(chart.plot(), titled, 900, 600, &error, title), qPrintable(error));
    const QImage a(plain), b(titled);
    const auto first_ink = [](const QImage& image) {
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                if (qGray(image.pixel(x, y)) < 128) return y;
        return image.height();
    };
    QVERIFY(first_ink(b) < first_ink(a));
    // On screen the chart has no title row: the export took it away again.
    QCOMPARE(chart.plot()->plotLayout()->rowCount(), 2);
}

// Exported narrower than the window shows it, the legend wraps to the image's width: every
// entry whole (squeezed into its column, one lost the end of its name) and inside the image,
// and nothing is drawn on the image's outermost pixels.
void ChartExportTest::legendFitsTheImage() {
    TimeChart chart;
    chart.resize(1600, 600);
    const int panel = chart.addPanel(QStringLiteral("latency (ms)"));
    for (int s = 0; s < 7; ++s) {
        QCPGraph* g = chart.addSeries(panel, QStringLiteral("p%1 latency of server %1").arg(s),
                                      QColor::fromHsv(s * 50, 200, 200));
        for (int t = 1; t <= 40; ++t)
            chart.append(g, t, 100.0 + 10 * t + s);
    }
    chart.refresh();
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QCPLegend* legend = chart.legend(panel);
    QTRY_VERIFY(legend->outerRect().width() > 0);
    QStringList cut;  // the entries of the last layout that were not whole in the image
    QObject::connect(chart.plot(), &QCustomPlot::afterLayout, &chart, [&] {
        cut.clear();
        for (int i = 0; i < legend->itemCount(); ++i)
            if (QCPAbstractLegendItem* entry = legend->item(i)) {
                const QRect r = entry->outerRect();
                if (r.width() < entry->minimumOuterSizeHint().width() ||
                    r.right() > chart.plot()->viewport().right())
                    cut << static_cast<QCPPlottableLegendItem*>(entry)->plottable()->name();
            }
    });
    for (const QSize size : {QSize(700, 450), QSize(1600, 1000)}) {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("edges.png"));
        QString error;
        QVERIFY2(export_chart(chart.plot(), path, size.width(), size.height(), &error,
                              QStringLiteral("edges")),
                 qPrintable(error));
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QStringLiteral(", "))));
        const QImage image = QImage(path).convertToFormat(QImage::Format_RGB32);
        const QRgb white = qRgb(255, 255, 255);
        constexpr int kBorder = 4;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const bool edge = x < kBorder || y < kBorder || x >= image.width() - kBorder ||
                                  y >= image.height() - kBorder;
                if (edge && image.pixel(x, y) != white)
                    QFAIL(qPrintable(QStringLiteral("%1x%2: ink at (%3, %4)")
                                         .arg(size.width())
                                         .arg(size.height())
                                         .arg(x)
                                         .arg(y)));
            }
    }
}

void ChartExportTest::emptyChartIsRefused() {
    TimeChart chart;
    chart.addSeries(chart.addPanel(QStringLiteral("ops/s")), QStringLiteral("get"), Qt::blue);
    chart.refresh();
    QVERIFY(!chart_has_data(chart.plot()));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("blank.png"));
    QString error;
    QVERIFY(!export_chart(chart.plot(), path, 800, 600, &error));
    QVERIFY2(error.contains(QStringLiteral("nothing")), qPrintable(error));
    QVERIFY(!QFile::exists(path));
}

// File → Export live chart… before any run: a message says why, and no file is asked for.
void ChartExportTest::emptyLiveChartIsRefusedWithAMessage() {
    MainWindow window;
    QAction* exportLive = nullptr;
    for (auto* action : window.findChildren<QAction*>())
        if (action->text().startsWith(QStringLiteral("&Export live chart"))) exportLive = action;
    QVERIFY(exportLive);
    int fileDialogs = 0;
    QTimer refuse;
    QObject::connect(&refuse, &QTimer::timeout, [&fileDialogs] {
        if (auto* files = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
            ++fileDialogs;
            files->reject();
        }
    });
    refuse.start(20);
    exportLive->trigger();
    auto* box = window.findChild<QMessageBox*>(QStringLiteral("errorReport"));
    QVERIFY2(box, "no message said why nothing was exported");
    QVERIFY2(box->text().contains(QStringLiteral("empty")), qPrintable(box->text()));
    QCOMPARE(fileDialogs, 0);
}

namespace {

// Two phases with an slo, the local host and the memcached probed, a note at 1 s: a report of
// several pages, with a panel of each kind.
StoredRun stored_slo_run(const test::TempDir& dir, const std::string& memcached) {
    const nlohmann::json spec = {{"name", "report of a cache run"},
                                 {"kind", "cache"},
                                 {"tick_ms", 250},
                                 {"phases",
                                  {{{"duration_s", 1.5}, {"rate", 400}, {"concurrency", 2}},
                                   {{"duration_s", 1.5}, {"rate", 800}, {"concurrency", 2}}}},
                                 {"cache",
                                  {{"servers", {memcached}},
                                   {"keys", {{"count", 1000}}},
                                   {"value_size", {{"min", 64}, {"max", 256}}}}},
                                 {"slo",
                                  {{"latency_ms", {{"p50", 50}, {"p90", 80}, {"p99", 100}}},
                                   {"error_rate", 0.01},
                                   {"window_s", 1}}},
                                 {"probes", {{{"local", true}}, {{"memcached", memcached}}}}};
    dir.write("spec.json", spec.dump());
    const std::string db = dir.file("runs.db");
    const test::Output ran =
        test::run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "-q"}, 60);
    // 3: it ran and a check failed, which the report tells as well as a pass.
    if (ran.code != 0 && ran.code != 3) qFatal("perflab run: %s", ran.err.c_str());
    const test::Output noted =
        test::run({PERFLAB_BINARY, "note", "1", "heap dump here", "--at", "1s", "--db", db});
    if (noted.code != 0) qFatal("perflab note: %s", noted.err.c_str());
    RunStore store(db, Access::read);
    return load_stored_run(store, 1);
}

}  // namespace

void ChartExportTest::runPdfReportIsPagedWithVectorPanels() {
    test::MemcachedServer memcached;
    test::TempDir dir;
    const StoredRun run = stored_slo_run(dir, memcached.endpoint());
    QVERIFY(run.report.summary.slo);
    const QString path = QString::fromStdString(dir.file("report.pdf"));
    QString error;
    QVERIFY2(write_run_report(run, path, &error), qPrintable(error));

    const int pages = test::pdf_pages(path);
    QVERIFY2(pages >= 3, qPrintable(QString::number(pages)));
    QStringList text;  // each page's
    for (int page = 1; page <= pages; ++page) {
        text << test::pdf_text(path, page);
        QVERIFY2(text.back().contains(QStringLiteral("page %1 of %2").arg(page).arg(pages)),
                 qPrintable(text.back()));
        QVERIFY2(text.back().contains(QStringLiteral("PerfLab run 1: report of a cache run")),
                 qPrintable(text.back()));
    }
    // The summary first: the verdict with every check, on one page, the figures with it.
    QVERIFY2(text[0].contains(QStringLiteral("Summary")), qPrintable(text[0]));
    QVERIFY(text[0].contains(QStringLiteral("SLO: ")));
    QVERIFY(text[0].contains(QStringLiteral("throughput ")));
    for (const auto& check : run.report.summary.slo->checks)
        QVERIFY2(text[0].contains(QString::fromStdString(check.name)),
                 qPrintable(QString::fromStdString(check.name) + "\n" + text[0]));

    // A block per panel, titled with the panel and the run; each with its own time axis.
    TimeChart chart;
    LiveCharts charts(&chart);
    show_stored_run(charts, run);
    QVERIFY(chart.panelCount() >= 8);  // the run's four, the host's four, the memcached's
    const QString all = text.join(QLatin1Char('\n'));
    for (int i = 0; i < chart.panelCount(); ++i) {
        const QString title = chart.panelTitle(i) + QStringLiteral(" — ");
        QVERIFY2(all.contains(title), qPrintable(title));
        QCOMPARE(all.count(title), 1);
    }
    const qsizetype axisLabels = all.count(QRegularExpression(QStringLiteral("\\b00:00:0\\d\\b")));
    QVERIFY2(axisLabels >= 2 * chart.panelCount(), qPrintable(QString::number(axisLabels)));
    // Drawn as vector graphics: not one raster image in the file.
    const QStringList images = test::pdf_images(path);
    QVERIFY2(images.isEmpty(), qPrintable(images.join(QLatin1Char('\n'))));
    // The note, in the chart and among the events after the charts.
    QVERIFY(all.count(QStringLiteral("heap dump here")) >= 2);
}

// A full GC, a phase's start and a note at the same second: their labels are drawn one under
// the other, none over another.
void ChartExportTest::markerLabelsAreStaggered() {
    TimeChart chart;
    LiveCharts charts(&chart);
    const auto spec = parse_spec(
        nlohmann::json{{"name", "labels"},
                       {"kind", "cache"},
                       {"phases", {{{"duration_s", 10}, {"rate", 100}, {"concurrency", 1}}}},
                       {"cache", {{"servers", {"127.0.0.1:1"}}}}});
    QVERIFY(spec);
    charts.begin(*spec.spec);
    IntervalSample s;
    s.t_ms = 1000;
    s.interval_ms = 1000;
    s.ops["get"].count = 10;
    charts.addSample(s);
    for (const char* kind : {"gc", "phase", "note"})
        charts.addEvent({5000, kind, std::string(kind) + " label at 5 s"});
    charts.refresh();
    chart.plot()->toPixmap(900, 600);
    QList<QRectF> labels;
    for (int i = 0; i < chart.plot()->itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(chart.plot()->item(i))) {
            const QMargins pad = text->padding();
            labels << QRectF(
                text->topLeft->pixelPosition() + QPointF(pad.left(), pad.top()),
                text->bottomRight->pixelPosition() - QPointF(pad.right(), pad.bottom()));
        }
    QCOMPARE(labels.size(), 3);
    for (int a = 0; a < labels.size(); ++a)
        for (int b = a + 1; b < labels.size(); ++b)
            QVERIFY2(!labels[a].intersects(labels[b]),
                     qPrintable(QStringLiteral("labels %1 and %2 overlap").arg(a).arg(b)));
}

int run_chart_export_test(int argc, char** argv) {
    ChartExportTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "chart_export_test.moc"
