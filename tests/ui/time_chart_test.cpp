// SPDX-License-Identifier: MIT
// The live chart's own promises: bounded series that keep their extremes, and one redraw per
// turn of the event loop, none while hidden.
#include "time_chart.h"

#include <qcustomplot.h>

#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <memory>

#include "ui_tests.h"

using namespace perflab;

class TimeChartTest : public QObject {
    Q_OBJECT
  private slots:
    void thinningKeepsSpikesDipsAndTheNewestPoint();
    void refreshesCoalesceIntoOneRedraw();
    void hiddenChartRedrawsWhenShown();
    void hiddenPanelsTakeNoSpaceAndAreRemembered();

  private:
    static void addPanels(TimeChart& chart) {
        for (const QString& kind :
             {QStringLiteral("Throughput"), QStringLiteral("Latency"), QStringLiteral("Errors")}) {
            const int panel = chart.addPanel(kind.toLower(), TimeChart::Scale::linear, kind);
            chart.addSeries(panel, kind, Qt::blue);
        }
    }
    static QAction* action(QMenu* menu, const QString& text) {
        for (QAction* a : menu->actions())
            if (a->text() == text) return a;
        return nullptr;
    }
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

void TimeChartTest::hiddenPanelsTakeNoSpaceAndAreRemembered() {
    const QString key = QStringLiteral("test/hiddenPanels");
    QSettings().remove(key);
    TimeChart chart;
    chart.resize(600, 600);
    chart.rememberPanelChoices(key);
    addPanels(chart);
    chart.addMarker(5, QStringLiteral("phase 2"), Qt::darkBlue);
    QCOMPARE(chart.plot()->axisRectCount(), 3);

    // As the user does it: the context menu's entry for the kind.
    std::unique_ptr<QMenu> menu(chart.createMenu(nullptr));
    QAction* errors = action(menu.get(), QStringLiteral("Errors"));
    QVERIFY(errors && errors->isChecked());
    errors->trigger();
    QCOMPARE(chart.plot()->axisRectCount(), 2);
    QCOMPARE(QSettings().value(key).toStringList(), QStringList{QStringLiteral("Errors")});
    // The time axis is labelled under the bottom panel still shown.
    QVERIFY(!chart.plot()->axisRect(0)->axis(QCPAxis::atBottom)->tickLabels());
    QVERIFY(chart.plot()->axisRect(1)->axis(QCPAxis::atBottom)->tickLabels());

    // With the top panel hidden, the marker's label moves to the new top one.
    chart.setKindHidden(QStringLiteral("Throughput"), true);
    QCOMPARE(chart.plot()->axisRectCount(), 1);
    QCPAxisRect* latency = chart.plot()->axisRect(0);
    QCOMPARE(latency->axis(QCPAxis::atLeft)->label(), QStringLiteral("latency"));
    // A marker added now draws on the panel shown only, its label there too.
    chart.addMarker(8, QStringLiteral("GC"), Qt::red);
    int labels = 0, lines = 0;
    for (int i = 0; i < chart.plot()->itemCount(); ++i) {
        QCPAbstractItem* item = chart.plot()->item(i);
        if (auto* text = qobject_cast<QCPItemText*>(item)) {
            QCOMPARE(text->clipAxisRect(), latency);
            labels += text->visible();
        }
        if (qobject_cast<QCPItemStraightLine*>(item) && item->visible()) {
            QCOMPARE(item->clipAxisRect(), latency);
            ++lines;
        }
    }
    QCOMPARE(labels, 2);
    QCOMPARE(lines, 2);

    // Another chart with the same key starts with the same choice; its last panel cannot go.
    TimeChart other;
    other.rememberPanelChoices(key);
    addPanels(other);
    QCOMPARE(other.plot()->axisRectCount(), 1);
    std::unique_ptr<QMenu> otherMenu(other.createMenu(nullptr));
    QVERIFY(!action(otherMenu.get(), QStringLiteral("Latency"))->isEnabled());
    action(otherMenu.get(), QStringLiteral("Errors"))->trigger();
    QCOMPARE(other.plot()->axisRectCount(), 2);
    QCOMPARE(QSettings().value(key).toStringList(), QStringList{QStringLiteral("Throughput")});
    QSettings().remove(key);
}

int run_time_chart_test(int argc, char** argv) {
    TimeChartTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "time_chart_test.moc"
