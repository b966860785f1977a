// SPDX-License-Identifier: MIT
// SLO verdicts, the max-rate search and live rate control in the window, on real runs against
// a real memcached: the live strip turns red when the server stalls, a search run's curve has
// one point per step, the form builds a search spec, the rate control moves the plan.
#include <qcustomplot.h>

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "database.h"
#include "history_view.h"
#include "live_view.h"
#include "main_window.h"
#include "memcached_server.h"
#include "own_data_home.h"
#include "process.h"
#include "run_list_model.h"
#include "run_session.h"
#include "run_store.h"
#include "search_curve.h"
#include "spec_form.h"
#include "stored_run_view.h"
#include "time_chart.h"
#include "ui_tests.h"

using namespace perflab;

namespace {

RunSpec parsed(const nlohmann::json& j) {
    SpecResult r = parse_spec(j);
    if (!r) qFatal("%s", r.error_text().c_str());
    return *r.spec;
}

nlohmann::json cache_json(const std::string& server) {
    return {{"name", "slo ui test"},
            {"kind", "cache"},
            {"tick_ms", 250},
            {"cache",
             {{"servers", {server}},
              {"driver", "async"},
              {"keys", {{"count", 1000}}},
              {"value_size", {{"min", 64}, {"max", 256}}},
              {"timeout_ms", 5000}}}};
}

QCPGraph* graph(const TimeChart* chart, const QString& name) {
    for (int i = 0; i < chart->plot()->graphCount(); ++i)
        if (chart->plot()->graph(i)->name() == name) return chart->plot()->graph(i);
    return nullptr;
}

}  // namespace

class SloViewTest : public QObject {
    Q_OBJECT
  private slots:
    void verdictStripTurnsRedOnABreach();
    void searchRunShowsItsCurveOnePointPerStep();
    void formBuildsASearchSpec();
    void rateControlChangesThePlannedRateWithinATick();
    void tenPercentOnARampScalesThePlanAndKeepsRamping();
};

// Green while memcached answers in microseconds; frozen (SIGSTOP), its window has replies
// over the limit or none at all, and either fails.
void SloViewTest::verdictStripTurnsRedOnABreach() {
    const test::OwnDataHome home;
    test::MemcachedServer server;
    MainWindow window;
    auto j = cache_json(server.endpoint());
    j["phases"] = {{{"duration_s", 60}, {"rate", 200}, {"concurrency", 2}}};
    j["slo"] = {{"latency_ms", {{"p99", 100}}}, {"window_s", 1}};
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QString error;
    QVERIFY2(window.startRun(parsed(j), &error), qPrintable(error));
    LiveView* live = window.liveView();
    auto* strip = live->findChild<QLabel*>(QStringLiteral("sloStrip"));
    QVERIFY(strip);
    QTRY_VERIFY_WITH_TIMEOUT(live->ticks() >= 3, 10000);
    QVERIFY2(!live->verdictFailing(), qPrintable(live->verdictChecks().join(", ")));
    QCOMPARE(live->verdictChecks().size(), 1);
    QVERIFY(live->verdictChecks().front().startsWith(QStringLiteral("p99 ≤ 100 ms: ")));
    QVERIFY(strip->isVisibleTo(live));
    QVERIFY(strip->text().contains(QStringLiteral("#198754")));  // green
    // The limit is a dashed line on the latency panel, a point per tick.
    QCPGraph* limit = graph(live->chart(), QStringLiteral("p99 limit"));
    QVERIFY(limit);
    QCOMPARE(limit->pen().style(), Qt::DashLine);
    QCOMPARE(limit->dataCount(), live->ticks());
    QCOMPARE(limit->data()->at(0)->value, 100.0);

    server.pause();
    QTRY_VERIFY_WITH_TIMEOUT(live->verdictFailing(), 5000);
    QVERIFY(strip->text().contains(QStringLiteral("#b02a37")));  // red
    server.resume();
    window.session()->stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
}

// A cache search that memcached meets up to rate_to: 500, 1000 and 2000/s all pass.
void SloViewTest::searchRunShowsItsCurveOnePointPerStep() {
    const test::OwnDataHome home;
    test::MemcachedServer server;
    MainWindow window;
    auto j = cache_json(server.endpoint());
    j["slo"] = {{"latency_ms", {{"p99", 200}, {"p50", 50}}}, {"error_rate", 0.01}};
    j["search"] = {{"rate_from", 500}, {"rate_to", 2000}, {"step_s", 1}, {"concurrency", 2}};
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QString error;
    QVERIFY2(window.startRun(parsed(j), &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    const auto summary = finished.at(0).at(0).value<RunSummary>();
    QVERIFY(summary.search.has_value());
    const SearchResult& search = *summary.search;
    QVERIFY(search.finished);
    // Three steps, then the answer held for 3 × step_s.
    QCOMPARE(int(search.steps.size()), 4);
    QCOMPARE(search.steps[2].rate, 2000.0);
    QVERIFY(search.steps[3].confirm);
    QCOMPARE(search.steps[3].rate, 2000.0);
    QVERIFY(search.confirmed);
    QVERIFY(search.max_rate.has_value());
    QCOMPARE(*search.max_rate, 2000.0);

    // The history lists the run with its answer once the listing asked for at the run's end
    // arrives: on a busy machine the listing asked for at start-up can land during the run,
    // showing the run's row before its end was stored.
    const auto verdict = [&] {
        const auto* model = window.historyView()->model();
        return model->rowCount() == 0
                   ? QString()
                   : model->data(model->index(0, RunListModel::Verdict)).toString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(verdict(), QStringLiteral("max 2000/s"), 10000);
    const int64_t id = RunStore(default_database_path(), Access::read).list().front().id;
    StoredRunView stored(default_database_path());
    QSignalSpy loaded(&stored, &StoredRunView::runLoaded);
    stored.open(id);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
    QVERIFY(stored.curve()->isVisibleTo(&stored));
    QCOMPARE(stored.curve()->points(), 3);
    QCOMPARE(stored.curve()->holdsMarked(), 1);
    QCOMPARE(stored.curve()->limitLines(), 2);  // p50 and p99
    QVERIFY(stored.curve()->kneeMarked());
    QVERIFY(stored.reportText().contains(QStringLiteral("Search: max rate 2000/s")));
}

void SloViewTest::formBuildsASearchSpec() {
    SpecForm form;
    auto j = cache_json("127.0.0.1:11211");
    j["phases"] = {{{"duration_s", 10}, {"concurrency", 4}}};
    form.setJson(j);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    form.searchModeBox()->setChecked(true);
    // A search with no objective is refused, naming what is missing.
    QVERIFY(!form.isValid());
    QVERIFY2(form.errorText().contains(QStringLiteral("slo: required")),
             qPrintable(form.errorText()));
    static_cast<QLineEdit*>(form.field("slo.latency_ms.p99"))->setText(QStringLiteral("100"));
    static_cast<QLineEdit*>(form.field("search.rate_from"))->setText(QStringLiteral("100"));
    static_cast<QLineEdit*>(form.field("search.rate_to"))->setText(QStringLiteral("5000"));
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QVERIFY(form.spec()->phases.empty());
    QCOMPARE(form.spec()->search->rate_to, 5000.0);
    QVERIFY(!form.spec()->search->confirm_s);  // empty: 3 × step_s
    static_cast<QLineEdit*>(form.field("search.confirm_s"))->setText(QStringLiteral("0"));
    static_cast<QLineEdit*>(form.field("search.settle_s"))->setText(QStringLiteral("15"));
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(*form.spec()->search->confirm_s, 0.0);
    QCOMPARE(form.spec()->search->settle_s, 15.0);
    QCOMPARE(form.spec()->slo->latency_ms.at("p99"), 100.0);
    // Back to phases: the search is gone, the slo stays.
    form.searchModeBox()->setChecked(false);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QVERIFY(!form.spec()->search);
    QVERIFY(form.spec()->slo);
}

void SloViewTest::rateControlChangesThePlannedRateWithinATick() {
    const test::OwnDataHome home;
    test::MemcachedServer server;
    MainWindow window;
    auto j = cache_json(server.endpoint());
    j["phases"] = {{{"duration_s", 60}, {"rate", 200}, {"concurrency", 2}}};
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QString error;
    QVERIFY2(window.startRun(parsed(j), &error), qPrintable(error));
    LiveView* live = window.liveView();
    QTRY_VERIFY_WITH_TIMEOUT(live->ticks() >= 2, 10000);
    auto* up = live->findChild<QPushButton*>(QStringLiteral("rateUp"));
    QVERIFY(up);
    QVERIFY(up->isEnabled());
    QCOMPARE(live->rateBox()->value(), 200.0);
    QCPGraph* planned = graph(live->chart(), QStringLiteral("planned"));
    QVERIFY(planned);
    const int before = live->ticks();
    up->click();
    // The tick after the click plans 220/s: the change waits for no tick.
    QTRY_VERIFY_WITH_TIMEOUT(live->ticks() >= before + 2, 5000);
    QCOMPARE(planned->data()->at(planned->dataCount() - 1)->value, 220.0);
    QCOMPARE(live->rateBox()->value(), 220.0);
    window.session()->stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
    const auto summary = finished.at(0).at(0).value<RunSummary>();
    QCOMPARE(int(summary.phases.size()), 1);
    // The change is stored with the run, as an event on its time axis.
    RunStore store(default_database_path(), Access::read);
    const auto events = store.events(store.list().front().id);
    QVERIFY(std::any_of(events.begin(), events.end(), [](const RunEvent& e) {
        return e.kind == "rate" &&
               e.text == "rate scaled by +10% from 200/s to 220/s for the rest of phase 1";
    }));
}

// −10% during a ramp takes 10% off the plan from here on: the ramp goes on, from and to
// 90% of its rates, rather than holding 90% of the last tick's rate.
void SloViewTest::tenPercentOnARampScalesThePlanAndKeepsRamping() {
    const test::OwnDataHome home;
    test::MemcachedServer server;
    MainWindow window;
    auto j = cache_json(server.endpoint());
    j["phases"] = {{{"duration_s", 60}, {"rate", 100}, {"rate_to", 700}, {"concurrency", 2}}};
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QString error;
    QVERIFY2(window.startRun(parsed(j), &error), qPrintable(error));
    LiveView* live = window.liveView();
    QTRY_VERIFY_WITH_TIMEOUT(live->ticks() >= 2, 10000);
    auto* down = live->findChild<QPushButton*>(QStringLiteral("rateDown"));
    QVERIFY(down);
    QVERIFY(down->isEnabled());
    QCPGraph* planned = graph(live->chart(), QStringLiteral("planned"));
    QVERIFY(planned);
    down->click();
    const int after = live->ticks() + 1;  // the first tick wholly after the click
    QTRY_VERIFY_WITH_TIMEOUT(live->ticks() >= after + 3, 10000);
    // The three ticks wholly after the change (the one the click fell in straddles it).
    const int n = planned->dataCount();
    for (int i = n - 2; i < n; ++i)
        QVERIFY2(planned->data()->at(i)->value > planned->data()->at(i - 1)->value,
                 "the planned rate stopped ramping");
    window.session()->stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
    RunStore store(default_database_path(), Access::read);
    const auto events = store.events(store.list().front().id);
    const auto change = std::find_if(events.begin(), events.end(),
                                     [](const RunEvent& e) { return e.kind == "rate"; });
    QVERIFY(change != events.end());
    const QRegularExpression told(QStringLiteral(
        R"(^rate scaled by -10% from (\d+)/s to (\d+)/s, ramping to 630/s for the rest of phase 1$)"));
    const auto m = told.match(QString::fromStdString(change->text));
    QVERIFY2(m.hasMatch(), change->text.c_str());
    const double was = m.captured(1).toDouble(), now = m.captured(2).toDouble();
    QVERIFY2(was > 100 && was < 700, change->text.c_str());
    QVERIFY2(std::abs(now - 0.9 * was) <= 1, change->text.c_str());
}

int run_slo_view_test(int argc, char** argv) {
    SloViewTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "slo_view_test.moc"
