// SPDX-License-Identifier: MIT
// A chart exports to valid, non-empty PNG, PDF and SVG files at the size asked for.
#include "chart_export.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QImage>
#include <QInputDialog>
#include <QLineEdit>
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
        if (action->text().startsWith(QStringLiteral("&Save spec"))) save = action;
    QVERIFY(save);
    DialogAnswers answers(QStringLiteral("Run specs (*.json)"), QStringLiteral("specB"));
    save->trigger();
    QCOMPARE(answers.answered(), 1);
    QFile spec(dir.filePath(QStringLiteral("specB.json")));
    QVERIFY2(spec.open(QIODevice::ReadOnly),
             qPrintable(QDir(dir.path()).entryList().join(QLatin1Char(' '))));
    QVERIFY(nlohmann::json::parse(spec.readAll().toStdString(), nullptr, false).is_object());
}

int run_chart_export_test(int argc, char** argv) {
    ChartExportTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "chart_export_test.moc"
