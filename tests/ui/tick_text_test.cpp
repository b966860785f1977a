// SPDX-License-Identifier: MIT
// Figures that change every tick repaint themselves only: no layout of the window, which would
// repaint all of it. Text that needs more room still gets it.
#include "tick_text.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QProgressBar>
#include <QSet>
#include <QTest>
#include <QVBoxLayout>

#include "live_view.h"
#include "model/sample.h"
#include "model/spec.h"
#include "stat_tile.h"
#include "ui_tests.h"

using namespace perflab;

namespace {

// Counts the layout requests any widget gets.
class LayoutRequests : public QObject {
  public:
    LayoutRequests() { qApp->installEventFilter(this); }
    ~LayoutRequests() override { qApp->removeEventFilter(this); }
    int count = 0;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::LayoutRequest && watched->isWidgetType()) ++count;
        return false;
    }
};

// Counts the paints of a window's widgets, and which were painted.
class Paints : public QObject {
  public:
    explicit Paints(QWidget* window) {
        for (QWidget* w : window->findChildren<QWidget*>())
            w->installEventFilter(this);
    }
    int count = 0;
    QSet<QObject*> widgets;

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() == QEvent::Paint) {
            ++count;
            widgets.insert(watched);
        }
        return false;
    }
};

IntervalSample tick(int t, int64_t ops, int64_t latency_us) {
    IntervalSample s;
    s.t_ms = t * 1000;
    s.interval_ms = 1000;
    s.ops["get"].count = ops;
    s.ops["get"].latency.record(latency_us);
    s.hits = ops / 2;
    s.misses = ops - ops / 2;
    s.connections = 50;
    return s;
}

// The live view of a 60-s run, shown at 1024x700, with its first tick handled and painted.
bool showPastFirstTick(LiveView& view) {
    RunSpec spec;
    spec.name = "ticks";
    Phase phase;
    phase.duration_s = 60;
    spec.phases.push_back(phase);
    view.resize(1024, 700);
    view.begin(spec);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view)) return false;
    view.addSample(tick(1, 1000, 200));
    QTest::qWait(50);
    return true;
}

}  // namespace

class TickTextTest : public QObject {
    Q_OBJECT
  private slots:
    void liveTilesChangeWithoutLayingOutTheWindow();
    void aTickPaintsNothingBeforeTheEventLoop();
    void growingTextIsNeverElided();
    void wrappedTextLaysOutOnlyWhenItsLinesChange();
};

void TickTextTest::liveTilesChangeWithoutLayingOutTheWindow() {
    LiveView view;
    QVERIFY(showPastFirstTick(view));

    const LayoutRequests requests;
    const StatTile* rate = view.findChildren<StatTile*>().front();
    QString shown = rate->value();
    // Figures of every width: 9 to 99,999,999 ops/s, 5 µs to 5 s.
    int64_t ops = 9;
    int64_t latency = 5;
    for (int t = 2; t <= 8; ++t) {
        ops = ops * 10 + 9;
        latency *= 10;
        view.addSample(tick(t, ops, latency));
        QCoreApplication::processEvents();
        QVERIFY2(rate->value() != shown, qPrintable(rate->value()));
        shown = rate->value();
    }
    QTest::qWait(50);
    QCOMPARE(requests.count, 0);
}

// A tick's sample is handled and its paint waits for the event loop, where it joins the
// tick's one paint of the window: a widget repainted at once flushes the window on its own.
void TickTextTest::aTickPaintsNothingBeforeTheEventLoop() {
    LiveView view;
    QVERIFY(showPastFirstTick(view));

    auto* progress = view.findChild<QProgressBar*>();
    QVERIFY(progress);
    const Paints painted(&view);
    view.addSample(tick(2, 2000, 300));
    view.addSample(tick(3, 3000, 400));
    QCOMPARE(painted.count, 0);
    QCOMPARE(progress->value(), 3);
    // The loop paints the bar with the tick's other changes.
    QTRY_VERIFY(painted.widgets.contains(progress));
}

// The phase line beside a stretching progress bar takes the room its longest text needs.
void TickTextTest::growingTextIsNeverElided() {
    QWidget window;
    auto* row = new QHBoxLayout(&window);
    auto* text = new TickText(&window, TickText::Overflow::grow);
    auto* bar = new QWidget(&window);
    bar->setMinimumWidth(200);
    row->addWidget(text);
    row->addWidget(bar, 1);
    text->setText(QStringLiteral("starting…"));
    window.resize(400, 40);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString longer = QStringLiteral("phase 12/20 · 150.0k/s planned");
    text->setText(longer);
    const double needed = QFontMetricsF(text->font()).horizontalAdvance(longer);
    QTRY_VERIFY2(
        text->contentsRect().width() >= needed,
        qPrintable(QStringLiteral("%1 < %2").arg(text->contentsRect().width()).arg(needed)));
    // A shorter text keeps the room: the bar beside it does not move each tick.
    const int width = text->width();
    const LayoutRequests requests;
    text->setText(QStringLiteral("phase 2/20"));
    QTest::qWait(20);
    QCOMPARE(requests.count, 0);
    QCOMPARE(text->width(), width);
}

void TickTextTest::wrappedTextLaysOutOnlyWhenItsLinesChange() {
    QWidget window;
    auto* column = new QVBoxLayout(&window);
    auto* text = new TickText(&window, TickText::Overflow::wrap);
    column->addWidget(text);
    column->addStretch(1);
    text->setText(QStringLiteral("PerfLab itself uses 97% CPU"));
    window.resize(300, 300);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(text->height() >= text->fontMetrics().height());
    const int oneLine = text->height();
    {
        const LayoutRequests requests;
        text->setText(QStringLiteral("PerfLab itself uses 98% CPU"));
        QTest::qWait(20);
        QCOMPARE(requests.count, 0);
    }
    text->setText(QStringLiteral(
        "PerfLab itself uses 98% CPU: the load generator may be the limit, not the server."));
    QTRY_VERIFY2(
        text->height() >= oneLine + text->fontMetrics().height(),
        qPrintable(QStringLiteral("%1 px high, one line was %2").arg(text->height()).arg(oneLine)));
}

int run_tick_text_test(int argc, char** argv) {
    TickTextTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "tick_text_test.moc"
