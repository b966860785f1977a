// SPDX-License-Identifier: MIT
// The live chart's own promises: bounded series that keep their extremes, and one redraw per
// turn of the event loop, none while hidden.
#include "time_chart.h"

#include <qcustomplot.h>

#include <QSignalSpy>
#include <QTest>

#include "ui_tests.h"

using namespace perflab;

class TimeChartTest : public QObject {
    Q_OBJECT
  private slots:
    void thinningKeepsSpikesDipsAndTheNewestPoint();
    void refreshesCoalesceIntoOneRedraw();
    void hiddenChartRedrawsWhenShown();
};

void TimeChartTest::thinningKeepsSpikesDipsAndTheNewestPoint() {
    TimeChart chart;
    const int panel = chart.addPanel(QStringLiteral("ms"));
    QCPGraph* g = chart.addSeries(panel, QStringLiteral("max"), Qt::red);
    constexpr int kTicks = 10'000;
    for (int t = 1; t <= kTicks; ++t) {
        double v = 100 + t % 7;
        if (t == 1234) v = 5000;
        if (t == 4321) v = 1;
        if (t == kTicks) v = 42;
        chart.append(g, t, v);
    }
    const auto data = g->data();
    QVERIFY(data->size() <= TimeChart::kMaxPoints);
    QVERIFY(data->size() >= TimeChart::kMaxPoints / 2);
    bool ok = false;
    const QCPRange values = g->getValueRange(ok);
    QVERIFY(ok);
    QCOMPARE(values.upper, 5000.0);
    QCOMPARE(values.lower, 1.0);
    QCOMPARE((data->constEnd() - 1)->key, double(kTicks));
    QCOMPARE((data->constEnd() - 1)->value, 42.0);
    for (auto it = data->constBegin() + 1; it != data->constEnd(); ++it)
        QVERIFY((it - 1)->key < it->key);
}

void TimeChartTest::refreshesCoalesceIntoOneRedraw() {
    TimeChart chart;
    chart.resize(600, 300);
    const int panel = chart.addPanel(QStringLiteral("ops/s"));
    QCPGraph* g = chart.addSeries(panel, QStringLiteral("get"), Qt::blue);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QTest::qWait(50);
    QSignalSpy replots(chart.plot(), &QCustomPlot::afterReplot);
    for (int t = 1; t <= 5; ++t) {
        chart.append(g, t, 1000.0 * t);
        chart.refresh();
    }
    // The ranges follow at once; the drawing waits for the event loop.
    QCOMPARE(chart.plot()->axisRect(0)->axis(QCPAxis::atBottom)->range().upper, 5.0);
    QCOMPARE(replots.count(), 0);
    QTest::qWait(50);
    QCOMPARE(replots.count(), 1);
}

void TimeChartTest::hiddenChartRedrawsWhenShown() {
    TimeChart chart;
    chart.resize(600, 300);
    const int panel = chart.addPanel(QStringLiteral("ops/s"));
    QCPGraph* g = chart.addSeries(panel, QStringLiteral("get"), Qt::blue);
    QCoreApplication::processEvents();  // QCustomPlot queues a first replot of its own
    QSignalSpy replots(chart.plot(), &QCustomPlot::afterReplot);
    for (int t = 1; t <= 60; ++t) {
        chart.append(g, t, 10.0);
        chart.refresh();
        QCoreApplication::processEvents();
    }
    QCOMPARE(replots.count(), 0);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QTRY_VERIFY(replots.count() >= 1);
}

int run_time_chart_test(int argc, char** argv) {
    TimeChartTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "time_chart_test.moc"
