// SPDX-License-Identifier: MIT
// A chart exports to valid, non-empty PNG, PDF and SVG files at the size asked for, headed by
// its title, clear of the image's edges, without the crosshair; an empty chart is refused.
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
#include <QSettings>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <functional>
#include <nlohmann/json.hpp>

#include "file_dialogs.h"
#include "main_window.h"
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

int run_chart_export_test(int argc, char** argv) {
    ChartExportTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "chart_export_test.moc"
