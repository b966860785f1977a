// SPDX-License-Identifier: MIT
// A chart exports to valid, non-empty PNG, PDF and SVG files at the size asked for.
#include "chart_export.h"

#include <QFile>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>

#include "time_chart.h"
#include "ui_tests.h"

using namespace perflab;

class ChartExportTest : public QObject {
    Q_OBJECT
  private slots:
    void writesValidFile_data();
    void writesValidFile();
    void unknownFormatIsRefused();

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

int run_chart_export_test(int argc, char** argv) {
    ChartExportTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "chart_export_test.moc"
