// SPDX-License-Identifier: MIT
// The live chart's own promises: bounded series that keep their extremes, and one redraw per
// turn of the event loop, none while hidden.
#include "time_chart.h"

#include <qcustomplot.h>

#include <QFontMetricsF>
#include <QMenu>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <memory>

#include "compact_ticks.h"
#include "live_view.h"
#include "ui_tests.h"

using namespace perflab;

class TimeChartTest : public QObject {
    Q_OBJECT
  private slots:
    void thinningKeepsSpikesDipsAndTheNewestPoint();
    void refreshesCoalesceIntoOneRedraw();
    void hiddenChartRedrawsWhenShown();
    void hiddenPanelsTakeNoSpaceAndAreRemembered();
    void legendsSitOutsideThePlotAreas();
    void clickOnLegendEntryTogglesItsSeries();
    void longLegendEntriesWrapInsideTheChart();
    void aRenamedSeriesGetsAnEntryOfItsNewWidth();
    void compactLabels();
    void tickLabelsDoNotOverlapAt1024x700();
    void crosshairSpansEveryPanelAndNamesEachValueWithItsUnit();
    void crosshairTellsStackedSharesAndBytes();
    void chartFollowsADarkPalette();
    void crowdedMarkerLabelsDoNotRunIntoEachOther();
    void panelsOutOfViewAreDrawnWhenScrolledIn();

  private:
    static void addPanels(TimeChart& chart) {
        for (const QString& kind :
             {QStringLiteral("Throughput"), QStringLiteral("Latency"), QStringLiteral("Errors")}) {
            const int panel = chart.addPanel(kind.toLower(), TimeChart::Scale::linear, kind);
            chart.addSeries(panel, kind, Qt::blue);
        }
    }
    // Whether any pixel of `area` is near magenta, a colour no axis, grid or text uses.
    static bool hasMagenta(const QImage& image, const QRect& area) {
        const QRect in = area.intersected(image.rect());
        for (int y = in.top(); y <= in.bottom(); ++y)
            for (int x = in.left(); x <= in.right(); ++x) {
                const QColor c = image.pixelColor(x, y);
                if (c.red() > 200 && c.blue() > 200 && c.green() < 90) return true;
            }
        return false;
    }
    // Whether `area` holds any dark pixel: text or an axis line on the white plot.
    static bool hasInk(const QImage& image, const QRect& area) {
        const QRect in = area.intersected(image.rect());
        for (int y = in.top(); y <= in.bottom(); ++y)
            for (int x = in.left(); x <= in.right(); ++x)
                if (QColor(image.pixel(x, y)).lightness() < 128) return true;
        return false;
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
    // Every panel still shown labels its time axis: a tall stack's bottom is out of view.
    QVERIFY(chart.plot()->axisRect(0)->axis(QCPAxis::atBottom)->tickLabels());
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

void TimeChartTest::legendsSitOutsideThePlotAreas() {
    TimeChart chart;
    chart.resize(1024, 600);
    addPanels(chart);
    for (int t = 1; t <= 30; ++t)
        for (int i = 0; i < chart.plot()->graphCount(); ++i)
            chart.append(chart.plot()->graph(i), t, 1000.0 * t);
    chart.refresh();
    QSignalSpy replots(chart.plot(), &QCustomPlot::afterReplot);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QTRY_VERIFY(replots.count() >= 1);
    for (int p = 0; p < chart.panelCount(); ++p) {
        const QRect legend = chart.legend(p)->outerRect();
        QVERIFY(legend.height() > 0 && chart.legend(p)->itemCount() == 1);
        for (int q = 0; q < chart.panelCount(); ++q)
            QVERIFY2(!legend.intersects(chart.axisRect(q)->rect()),
                     qPrintable(QStringLiteral("legend %1 over panel %2").arg(p).arg(q)));
    }
}

// Three runs named in full (a compare) on a 600-px chart: one per line, none past the edge;
// short names on a wide chart share a line.
void TimeChartTest::longLegendEntriesWrapInsideTheChart() {
    TimeChart chart;
    chart.resize(600, 400);
    const int panel = chart.addPanel(QStringLiteral("ops/s"), TimeChart::Scale::linear);
    for (const char* tail : {"A", "B", "C"})
        chart.append(
            chart.addSeries(
                panel, QStringLiteral("#1 ") + QString(60, QLatin1Char('x')) + QLatin1String(tail),
                Qt::blue),
            1, 1);
    const int other = chart.addPanel(QStringLiteral("ms"), TimeChart::Scale::linear);
    for (const char* name : {"p50", "p99", "max"})
        chart.append(chart.addSeries(other, QLatin1String(name), Qt::red), 1, 1);
    chart.refresh();
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QCPLegend* legend = chart.legend(panel);
    QTRY_COMPARE(legend->wrap(), 1);
    QTRY_VERIFY(legend->item(2)->outerRect().top() > legend->item(1)->outerRect().top());
    for (int i = 0; i < legend->itemCount(); ++i)
        QVERIFY2(legend->item(i)->outerRect().right() <= chart.plot()->width(),
                 qPrintable(QString::number(legend->item(i)->outerRect().right())));
    const QCPLegend* shortNames = chart.legend(other);
    QCOMPARE(shortNames->item(0)->outerRect().top(), shortNames->item(2)->outerRect().top());
}

// Entries are measured once per name: a new name is measured anew, and the legend wraps for it.
// An entry wider than the panel does not widen the plot: the time axis stays in view.
void TimeChartTest::aRenamedSeriesGetsAnEntryOfItsNewWidth() {
    TimeChart chart;
    chart.resize(600, 300);
    const int panel = chart.addPanel(QStringLiteral("ms"), TimeChart::Scale::linear);
    std::vector<QCPGraph*> series;
    for (const char* name : {"p50", "p99", "max"}) {
        series.push_back(chart.addSeries(panel, QLatin1String(name), Qt::red));
        chart.append(series.back(), 1, 1);
    }
    QSignalSpy replots(chart.plot(), &QCustomPlot::afterReplot);
    chart.refresh();
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QCPLegend* legend = chart.legend(panel);
    QTRY_VERIFY(replots.count() >= 1);
    QCOMPARE(legend->item(0)->outerRect().top(), legend->item(2)->outerRect().top());

    const QString longName = QStringLiteral("#2 ") + QString(90, QLatin1Char('y'));
    series[0]->setName(longName);
    chart.refresh();
    const double text = QFontMetricsF(legend->font()).horizontalAdvance(longName);
    QTRY_VERIFY2(legend->item(0)->minimumOuterSizeHint().width() >= text,
                 qPrintable(QString::number(legend->item(0)->minimumOuterSizeHint().width())));
    QTRY_VERIFY(legend->item(2)->outerRect().top() > legend->item(0)->outerRect().top());
    QVERIFY(text > chart.plot()->width() - chart.axisRect(panel)->left());
    QCOMPARE(chart.plot()->width(), chart.plot()->parentWidget()->width());
    QVERIFY(chart.axisRect(panel)->right() < chart.plot()->width());
}

void TimeChartTest::clickOnLegendEntryTogglesItsSeries() {
    TimeChart chart;
    chart.resize(800, 400);
    const int panel = chart.addPanel(QStringLiteral("ops/s"));
    QCPGraph* get = chart.addSeries(panel, QStringLiteral("get"), Qt::blue);
    QCPGraph* set = chart.addSeries(panel, QStringLiteral("set"), Qt::red);
    for (int t = 1; t <= 10; ++t) {
        chart.append(get, t, 100);
        chart.append(set, t, 5000);
    }
    chart.refresh();
    QSignalSpy replots(chart.plot(), &QCustomPlot::afterReplot);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QTRY_VERIFY(replots.count() >= 1);
    const QPoint entry = chart.legend(panel)->item(1)->rect().center();
    QTest::mouseClick(chart.plot(), Qt::LeftButton, {}, entry);
    QVERIFY(!set->visible());
    QVERIFY(get->visible());
    // The hidden series no longer sets the scale: the small one fills the panel.
    QVERIFY(chart.axisRect(panel)->axis(QCPAxis::atLeft)->range().upper < 1000);
    QTest::mouseClick(chart.plot(), Qt::LeftButton, {}, entry);
    QVERIFY(set->visible());
}

void TimeChartTest::compactLabels() {
    QCOMPARE(compact_count(60000), QStringLiteral("60k"));
    QCOMPARE(compact_count(1.2e6), QStringLiteral("1.2M"));
    QCOMPARE(compact_count(2500), QStringLiteral("2.5k"));
    QCOMPARE(compact_count(999), QStringLiteral("999"));
    QCOMPARE(compact_count(0.5), QStringLiteral("0.5"));
    QCOMPARE(compact_count(0), QStringLiteral("0"));
    QCOMPARE(compact_ms(0.25), QStringLiteral("250µs"));
    QCOMPARE(compact_ms(12), QStringLiteral("12ms"));
    QCOMPARE(compact_ms(1500), QStringLiteral("1.5s"));
}

// The live view of a cache run with a probed host, at the smallest size people use: every
// panel keeps a readable height (the stack scrolls) and no two value labels overlap.
void TimeChartTest::tickLabelsDoNotOverlapAt1024x700() {
    RunSpec spec;
    spec.name = "small window";
    spec.phases.push_back(Phase{});
    LiveView view;
    view.resize(1024, 700);
    view.begin(spec);
    for (int t = 1; t <= 30; ++t) {
        IntervalSample s;
        s.t_ms = t * 1000;
        s.interval_ms = 1000;
        s.ops["get"].count = 54000;
        s.ops["set"].count = 6000;
        s.ops["get"].latency.record(200 + 10 * t);
        s.hits = 50000;
        s.misses = 4000;
        view.addSample(s);
        ProbeSample host;
        host.t_ms = t * 1000;
        host.kind = "host";
        host.source = "local";
        host.values = {{"cpu_user", 40},  {"cpu_system", 10},  {"cpu_iowait", 1},    {"load1", 3.5},
                       {"mem_used", 6e9}, {"net_rx_Bps", 2e6}, {"net_tx_Bps", 1.5e6}};
        view.addProbeSample(host);
    }
    QSignalSpy replots(view.chart()->plot(), &QCustomPlot::afterReplot);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QTRY_VERIFY(replots.count() >= 1);
    // The stack is taller than the view: it scrolls rather than squeezing its panels.
    QTRY_VERIFY(view.chart()->plot()->height() >=
                view.chart()->panelCount() * TimeChart::kMinPanelHeight);
    QVERIFY(view.chart()->plot()->height() > view.chart()->height());
    const QRegularExpression compact(QStringLiteral("^-?\\d{1,3}(\\.\\d+)?[kMGT]?(µs|ms|s)?$"));
    for (int p = 0; p < view.chart()->panelCount(); ++p) {
        QCPAxisRect* rect = view.chart()->axisRect(p);
        QVERIFY2(rect->height() >= 50, qPrintable(QString::number(rect->height())));
        QCPAxis* axis = rect->axis(QCPAxis::atLeft);
        const int label = QFontMetrics(axis->tickLabelFont()).height();
        const QVector<double> ticks = axis->tickVector();
        const QVector<QString> labels = axis->tickVectorLabels();
        std::vector<double> shown;
        for (int i = 0; i < ticks.size(); ++i) {
            if (!axis->range().contains(ticks[i])) continue;
            QVERIFY2(compact.match(labels[i]).hasMatch(), qPrintable(labels[i]));
            shown.push_back(axis->coordToPixel(ticks[i]));
        }
        QVERIFY2(shown.size() >= 2, qPrintable(axis->label()));
        for (size_t i = 1; i < shown.size(); ++i)
            QVERIFY2(std::abs(shown[i] - shown[i - 1]) > label,
                     qPrintable(QStringLiteral("%1: labels %2 px apart, %3 px high")
                                    .arg(axis->label())
                                    .arg(std::abs(shown[i] - shown[i - 1]))
                                    .arg(label)));
    }
}

void TimeChartTest::crosshairSpansEveryPanelAndNamesEachValueWithItsUnit() {
    TimeChart chart;
    const int ops = chart.addPanel(QStringLiteral("ops/s"));
    const int latency = chart.addPanel(QStringLiteral("latency"), TimeChart::Scale::log,
                                       QStringLiteral("Latency"), AxisUnit::milliseconds);
    QCPGraph* total = chart.addSeries(ops, QStringLiteral("total"), Qt::black);
    QCPGraph* p99 = chart.addSeries(latency, QStringLiteral("p99"), Qt::red);
    for (int t = 1; t <= 5; ++t) {
        chart.append(total, t, 1000.0 * t);
        chart.append(p99, t, 2.5 * t);
    }
    chart.refresh();
    QVERIFY(!chart.crosshairVisible());
    chart.showCrosshair(3.0);
    QVERIFY(chart.crosshairVisible());
    const QString text = chart.crosshairText(3.0);
    QVERIFY2(text.startsWith(QStringLiteral("00:00:03")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("total: 3,000 ops/s")) ||
                 text.contains(QStringLiteral("total: 3000 ops/s")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("p99: 7.5 ms")), qPrintable(text));
    chart.hideCrosshair();
    QVERIFY(!chart.crosshairVisible());
}

// A stacked area is told as its own share, not the sum it is drawn at; bytes in 1024-based
// units, a rate of bytes per second.
void TimeChartTest::crosshairTellsStackedSharesAndBytes() {
    TimeChart chart;
    const int cpu = chart.addPanel(QStringLiteral("CPU %"));
    const int mem = chart.addPanel(QStringLiteral("memory B"), TimeChart::Scale::linear,
                                   QStringLiteral("Host memory"), AxisUnit::bytes);
    const int net = chart.addPanel(QStringLiteral("net B/s"), TimeChart::Scale::linear,
                                   QStringLiteral("Host network"), AxisUnit::bytes);
    QCPGraph* io = chart.addArea(cpu, QStringLiteral("+iowait"), Qt::yellow);
    QCPGraph* sys = chart.addArea(cpu, QStringLiteral("+system"), Qt::red);
    QCPGraph* user = chart.addArea(cpu, QStringLiteral("user"), Qt::blue);
    QCPGraph* used = chart.addSeries(mem, QStringLiteral("used"), Qt::darkYellow);
    QCPGraph* rx = chart.addSeries(net, QStringLiteral("rx"), Qt::green);
    chart.append(io, 1, 60);  // user 30 + system 20 + iowait 10
    chart.append(sys, 1, 50);
    chart.append(user, 1, 30);
    chart.append(used, 1, 3.5 * 1024 * 1024 * 1024);
    chart.append(rx, 1, 1536);
    chart.refresh();
    const QString text = chart.crosshairText(1.0);
    for (const char* line : {"iowait: 10 CPU %", "system: 20 CPU %", "user: 30 CPU %",
                             "used: 3.5 GiB", "rx: 1.5 KiB/s"})
        QVERIFY2(text.split(QLatin1Char('\n')).contains(QString::fromUtf8(line)),
                 qPrintable(QStringLiteral("no \"%1\" in\n%2").arg(QString::fromUtf8(line), text)));
}

// A dark desktop gives the window a dark palette: the chart's background, axes and legends
// follow it, those of a panel added later too, and a hidden series' entry stays faded.
void TimeChartTest::chartFollowsADarkPalette() {
    TimeChart chart;
    chart.resize(600, 300);
    const int ops = chart.addPanel(QStringLiteral("ops/s"));
    QCPGraph* total = chart.addSeries(ops, QStringLiteral("total"), Qt::red);
    for (int t = 1; t <= 5; ++t)
        chart.append(total, t, 100.0 * t);
    const QColor text(235, 235, 235), base(25, 25, 28);
    QPalette dark = chart.palette();
    dark.setColor(QPalette::Window, QColor(40, 40, 44));
    dark.setColor(QPalette::WindowText, text);
    dark.setColor(QPalette::Base, base);
    dark.setColor(QPalette::Text, text);
    chart.setPalette(dark);
    const int latency = chart.addPanel(QStringLiteral("latency"), TimeChart::Scale::log,
                                       QStringLiteral("Latency"), AxisUnit::milliseconds);
    chart.addSeries(latency, QStringLiteral("p99"), Qt::blue);
    chart.refresh();
    int rects = 0;
    for (QCPAxisRect* rect : chart.plot()->axisRects()) {
        ++rects;
        QCOMPARE(rect->axis(QCPAxis::atLeft)->tickLabelColor(), text);
        QCOMPARE(rect->axis(QCPAxis::atBottom)->basePen().color(), text);
    }
    QCOMPARE(rects, 2);
    const QImage image = chart.plot()->toPixmap(600, 300).toImage();
    QCOMPARE(image.pixelColor(1, image.height() - 2), base);
    int legends = 0;
    for (QCPLayoutElement* e : chart.plot()->plotLayout()->elements(true))
        if (auto* legend = qobject_cast<QCPLegend*>(e)) {
            ++legends;
            QCOMPARE(legend->textColor(), text);
        }
    QCOMPARE(legends, 2);
}

// A search's 2-s steps over 30 s: their labels, longer than 2 s of axis, would be drawn over
// each other; those that would run into the one before are left out, and come back zoomed in.
void TimeChartTest::crowdedMarkerLabelsDoNotRunIntoEachOther() {
    TimeChart chart;
    chart.resize(600, 300);
    const int ops = chart.addPanel(QStringLiteral("ops/s"));
    QCPGraph* total = chart.addSeries(ops, QStringLiteral("total"), Qt::black);
    for (int t = 0; t <= 30; ++t) {
        chart.append(total, t, 100);
        chart.addMarker(t, QStringLiteral("phase %1: rate %2/s for 2 s").arg(t + 1).arg(100 * t),
                        Qt::blue, 1);
    }
    chart.refresh();
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    const auto shown = [&] {
        chart.plot()->replot();
        std::vector<std::pair<double, double>> spans;  // each visible label's pixels
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(chart.plot()->item(i));
                text && text->visible()) {
                const double x = text->position->pixelPosition().x();
                spans.emplace_back(x,
                                   x + QFontMetrics(text->font()).horizontalAdvance(text->text()));
            }
        std::sort(spans.begin(), spans.end());
        return spans;
    };
    const auto second = [&] {
        for (int i = 0; i < chart.plot()->itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(chart.plot()->item(i));
                text && text->text().startsWith(QStringLiteral("phase 2:")))
                return text;
        return static_cast<QCPItemText*>(nullptr);
    };
    const auto whole = shown();
    QVERIFY(whole.size() >= 2);
    QVERIFY(whole.size() < 31);
    for (size_t i = 1; i < whole.size(); ++i)
        QVERIFY2(whole[i].first >= whole[i - 1].second,
                 qPrintable(QStringLiteral("label at %1 px starts before %2 px")
                                .arg(whole[i].first)
                                .arg(whole[i - 1].second)));
    QVERIFY(second() && !second()->visible());
    chart.plot()->axisRect(0)->axis(QCPAxis::atBottom)->setRange(0, 2.5);
    shown();
    QVERIFY(second()->visible());
}

// A replot leaves out the series of panels scrolled out of view; scrolling draws them, an
// export draws every panel, and no series is left hidden by it.
void TimeChartTest::panelsOutOfViewAreDrawnWhenScrolledIn() {
    TimeChart chart;
    chart.resize(600, 260);
    std::vector<QCPGraph*> graphs;
    for (int p = 0; p < 4; ++p) {
        const int panel = chart.addPanel(QStringLiteral("panel %1").arg(p));
        graphs.push_back(chart.addSeries(panel, QStringLiteral("s%1").arg(p),
                                         p == 3 ? QColor(Qt::magenta) : QColor(Qt::blue)));
        for (int t = 1; t <= 30; ++t)
            chart.append(graphs.back(), t, 50 + (t % 5) * 10);
    }
    chart.refresh();
    QSignalSpy replots(chart.plot(), &QCustomPlot::afterReplot);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QTRY_VERIFY(replots.count() >= 1);
    QTRY_VERIFY(chart.plot()->height() >= 4 * TimeChart::kMinPanelHeight);
    QCoreApplication::processEvents();

    // The bottom panel is below the view: its series is not in the plot's buffer.
    QVERIFY(
        !chart.axisRect(3)->outerRect().intersects(chart.plot()->visibleRegion().boundingRect()));
    // Nor its axes: the left margin, where its tick labels go, is blank.
    const QRect bottom = chart.axisRect(3)->rect();
    const QRect labels(chart.axisRect(3)->outerRect().left(), bottom.top(),
                       bottom.left() - chart.axisRect(3)->outerRect().left(), bottom.height());
    QVERIFY(!hasMagenta(chart.plot()->grab().toImage(), bottom));
    QVERIFY(!hasInk(chart.plot()->grab().toImage(), labels));
    for (QCPGraph* g : graphs)
        QVERIFY(g->visible());
    for (int p = 0; p < 4; ++p)
        QVERIFY(chart.axisRect(p)->visible());
    const QImage exported = chart.plot()->toPixmap().toImage();
    QVERIFY(hasMagenta(exported, bottom));
    QVERIFY(hasInk(exported, labels));

    auto* scroll = chart.findChild<QScrollArea*>();
    QVERIFY(scroll);
    scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
    QTRY_VERIFY(hasMagenta(chart.plot()->grab().toImage(), bottom));
    QVERIFY(hasInk(chart.plot()->grab().toImage(), labels));
    for (QCPGraph* g : graphs)
        QVERIFY(g->visible());
    for (int p = 0; p < 4; ++p)
        QVERIFY(chart.axisRect(p)->visible());
}

int run_time_chart_test(int argc, char** argv) {
    TimeChartTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "time_chart_test.moc"
