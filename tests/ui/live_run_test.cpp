// SPDX-License-Identifier: MIT
// Real cache runs against a real memcached, driven through the main window: the live charts
// get one point per tick, Stop ends a run early, late sends raise the generator banner.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <qcustomplot.h>
#include <sys/socket.h>
#include <unistd.h>

#include <QAction>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QInputDialog>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QTimer>
#include <QUrl>
#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "agent_tiles.h"
#include "database.h"
#include "history_view.h"
#include "live_view.h"
#include "local_memcached.h"
#include "main_window.h"
#include "memcached_server.h"
#include "own_data_home.h"
#include "process.h"
#include "redis_server.h"
#include "run_bridge.h"
#include "run_list_model.h"
#include "run_report.h"
#include "run_session.h"
#include "run_store.h"
#include "silent_server.h"
#include "spec_form.h"
#include "sshd_server.h"
#include "stat_tile.h"
#include "stored_run_view.h"
#include "time_chart.h"
#include "ui_tests.h"
#include "vegeta_results.h"

using namespace perflab;

namespace {

RunSpec cache_spec(const std::string& server, double seconds) {
    const nlohmann::json j = {{"name", "ui test"},
                              {"kind", "cache"},
                              {"tick_ms", 250},
                              {"phases", {{{"duration_s", seconds}, {"concurrency", 2}}}},
                              {"cache",
                               {{"servers", {server}},
                                {"keys", {{"count", 1000}}},
                                {"value_size", {{"min", 64}, {"max", 256}}}}}};
    SpecResult r = parse_spec(j);
    if (!r) qFatal("%s", r.error_text().c_str());
    return *r.spec;
}

// The run's first note event as stored.
std::optional<RunEvent> first_note(RunStore& store, int64_t id) {
    for (const RunEvent& e : store.events(id))
        if (e.kind == "note") return e;
    return std::nullopt;
}

QCPGraph* graph(const TimeChart* chart, const QString& name) {
    for (int i = 0; i < chart->plot()->graphCount(); ++i)
        if (chart->plot()->graph(i)->name() == name) return chart->plot()->graph(i);
    return nullptr;
}

}  // namespace

class LiveRunTest : public QObject {
    Q_OBJECT
  private slots:
    void cacheRunFillsChartsOnePointPerTick();
    void stopButtonEndsTheRun();
    void secondStopCancelsTheRequestsInFlight();
    void stopWhileAProbeConnectsEndsTheRun();
    void runLandsInTheHistory();
    void firstStartFormWaitsForAServer();
    void lateSendsRaiseTheBanner();
    void probeThatCannotStartRefusesTheRun();
    void serverProbesAreChartedLiveAndStored();
    void throughputTotalKeepsThePlanAndDrainsAreNotDrawn();
    void probePanelsKeepOneOrderWhicheverProbeComesFirst();
    void prometheusPanelPerMetricLinePerLabelSet();
    void processPanelsStackItsCpuAndDrawItsRss();
    void redisProbeIsChartedLiveAndStored();
    void serviceTimeIsALineOnlyWhereItWasMeasured();
    void annotationRoundTripsThroughTheStoreAndTheReport();
    void aNoteStandsWhereItWasAskedFor();
    void importLandsInTheHistoryWithItsProgress();
    void bundleGoesOutOfHistoryAndDropsBackIn();
    void agentsRunShowsATilePerAgentAndStoresTheirShares();
    void agentAtItsLimitRaisesTheBanner();
    void liveMetricsAreServedWhileTheRunGoes();
};

void LiveRunTest::cacheRunFillsChartsOnePointPerTick() {
    test::MemcachedServer server;
    MainWindow window;
    // A tick each, but not a phase's drain (replies in flight at its end, when the machine is
    // slow enough to leave some), which the timeline does not draw.
    int samples = 0;
    connect(window.session()->bridge(), &RunBridge::sampled, &window,
            [&samples](const IntervalSample& s) { samples += s.interval_ms > 0 && !s.drain; });
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QString error;
    QVERIFY2(window.startRun(cache_spec(server.endpoint(), 2.0), &error), qPrintable(error));
    QVERIFY(window.session()->running());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    const auto summary = finished.at(0).at(0).value<RunSummary>();
    QCOMPARE(summary.status, RunStatus::completed);
    QVERIFY(!window.session()->running());
    QVERIFY2(samples >= 6, qPrintable(QString::number(samples)));
    QCOMPARE(window.liveView()->ticks(), samples);
    const TimeChart* chart = window.liveView()->chart();
    for (const char* name : {"get", "errors/s", "p99", "hit rate"}) {
        QCPGraph* g = graph(chart, QString::fromLatin1(name));
        QVERIFY2(g, name);
        QCOMPARE(g->dataCount(), samples);
    }
    QVERIFY(chart->markerCount() >= 1);  // the phase's start
    QVERIFY(summary.overall.totals.total_ops() > 0);
}

void LiveRunTest::stopButtonEndsTheRun() {
    test::MemcachedServer server;
    MainWindow window;
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QSignalSpy sampled(window.session()->bridge(), &RunBridge::sampled);
    QString error;
    QVERIFY2(window.startRun(cache_spec(server.endpoint(), 60.0), &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(sampled.count() >= 1, 10000);
    auto* stop = window.liveView()->findChild<QPushButton*>(QStringLiteral("stopButton"));
    QVERIFY(stop && stop->isEnabled());
    stop->click();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    QCOMPARE(finished.at(0).at(0).value<RunSummary>().status, RunStatus::stopped);
}

// memcached frozen with requests in flight: the first Stop waits for them (up to their
// timeout), the button now reads "Stop now", and pressing it ends the run at once with them
// counted as cancelled.
void LiveRunTest::secondStopCancelsTheRequestsInFlight() {
    test::MemcachedServer server;
    MainWindow window;
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QSignalSpy sampled(window.session()->bridge(), &RunBridge::sampled);
    RunSpec spec = cache_spec(server.endpoint(), 60.0);
    spec.cache->timeout_ms = 60'000;
    QString error;
    QVERIFY2(window.startRun(spec, &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(sampled.count() >= 1, 10000);
    server.pause();
    auto* stop = window.liveView()->findChild<QPushButton*>(QStringLiteral("stopButton"));
    QVERIFY(stop && stop->isEnabled());
    stop->click();
    QCOMPARE(stop->text(), QStringLiteral("Stop now"));
    QVERIFY(stop->isEnabled());
    QCOMPARE(finished.count(), 0);
    stop->click();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    server.resume();
    const auto summary = finished.at(0).at(0).value<RunSummary>();
    QCOMPARE(summary.status, RunStatus::stopped);
    const auto& errors = summary.overall.totals.errors;
    QVERIFY2(errors.count("cancelled") && errors.at("cancelled") > 0, "no request cancelled");
}

void LiveRunTest::stopWhileAProbeConnectsEndsTheRun() {
    test::MemcachedServer server;
    test::SilentServer silent;
    MainWindow window;
    QStringList errors;
    connect(window.session()->bridge(), &RunBridge::event, &window, [&errors](const RunEvent& e) {
        if (e.kind == "error") errors << QString::fromStdString(e.text);
    });
    QSignalSpy finished(&window, &MainWindow::runFinished);
    RunSpec spec = cache_spec(server.endpoint(), 60.0);
    ProbeSpec probe;
    probe.type = ProbeSpec::Type::ssh;
    probe.target = silent.target();
    spec.probes.push_back(probe);
    QString error;
    QVERIFY2(window.startRun(spec, &error), qPrintable(error));
    QVERIFY(silent.wait_for_connections(1, 30000));
    QAction* stop = nullptr;
    for (auto* action : window.findChildren<QAction*>())
        if (action->text() == QStringLiteral("S&top")) stop = action;
    QVERIFY(stop);
    stop->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QCOMPARE(finished.at(0).at(0).value<RunSummary>().status, RunStatus::stopped);
    // The probe's connect ended because of the Stop, not by timing out on the silent host.
    QTRY_COMPARE(errors.size(), 1);
    QVERIFY2(errors[0].contains(QStringLiteral("cancelled")), qPrintable(errors[0]));
}

void LiveRunTest::runLandsInTheHistory() {
    // A database of its own: an empty history, so the quick start is offered.
    const test::OwnDataHome home;
    test::MemcachedServer server;
    MainWindow window;
    QSignalSpy refreshed(window.historyView(), &HistoryView::refreshed);
    QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() >= 1, 10000);
    QCOMPARE(window.historyView()->model()->rowCount(), 0);
    QVERIFY(!window.welcome()->isHidden());

    QSignalSpy finished(&window, &MainWindow::runFinished);
    QString error;
    QVERIFY2(window.startRun(cache_spec(server.endpoint(), 1.0), &error), qPrintable(error));
    QVERIFY(window.welcome()->isHidden());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    const auto summary = finished.at(0).at(0).value<RunSummary>();
    QTRY_COMPARE_WITH_TIMEOUT(window.historyView()->model()->rowCount(), 1, 10000);
    const RunInfo& run = window.historyView()->model()->run(0);
    QCOMPARE(run.name, std::string("ui test"));
    QCOMPARE(run.status, std::string("completed"));
    QCOMPARE(run.figures.ops, summary.overall.totals.total_ops());
    QVERIFY(run.figures.ops > 0);
    QVERIFY(window.welcome()->isHidden());
}

// A first start offers a short run of small values whose server the user names (or the
// Quick start's own memcached): not a 300-s run aimed at a port nothing may listen on.
void LiveRunTest::firstStartFormWaitsForAServer() {
    const test::OwnDataHome home;
    QSettings().remove(QStringLiteral("spec/last"));
    MainWindow window;
    SpecForm* form = window.specForm();
    QVERIFY(!form->isValid());
    QVERIFY(!form->startButton()->isEnabled());
    QVERIFY2(form->errorText().contains(QStringLiteral("cache.servers")),
             qPrintable(form->errorText()));
    nlohmann::json j = form->json();
    double seconds = 0;
    for (const auto& phase : j["phases"])
        seconds += phase["duration_s"].get<double>();
    QCOMPARE(seconds, 30.0);
    QVERIFY(j["cache"]["value_size"]["max"].get<int>() <= 4096);
    test::MemcachedServer server;
    j["cache"]["servers"] = {server.endpoint()};
    form->setJson(j);
    QVERIFY2(form->isValid(), qPrintable(form->errorText()));
    QVERIFY(form->startButton()->isEnabled());
}

// Over 1% of a tick's sends late raises the banner (one late send of a thousand does not);
// three ticks in a row that keep the schedule clear it.
void LiveRunTest::lateSendsRaiseTheBanner() {
    LiveView view;
    view.begin(cache_spec("127.0.0.1:1", 10));
    IntervalSample s;
    s.interval_ms = 1000;
    s.ops["get"].count = 1000;
    s.sent = 1000;
    const auto tick = [&](uint64_t late) {
        s.t_ms += 1000;
        s.late = late;
        view.addSample(s);
        return view.generatorLimited();
    };
    QVERIFY(!tick(0));
    QVERIFY(!tick(1));
    QVERIFY(tick(30));
    QVERIFY(tick(0));
    QVERIFY(tick(0));
    QVERIFY(!tick(0));
}

// As `perflab run` refuses it: nothing runs, a dialog names the probe and the error; started
// without it, the local probe's panels are there and the run's stored events name it.
void LiveRunTest::probeThatCannotStartRefusesTheRun() {
    test::MemcachedServer server;
    MainWindow window;
    QSignalSpy started(window.session()->bridge(), &RunBridge::started);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    RunSpec spec = cache_spec(server.endpoint(), 1.0);
    spec.probes.push_back(ProbeSpec{});  // local
    ProbeSpec dead;
    dead.type = ProbeSpec::Type::memcached;
    const QString target = QStringLiteral("127.0.0.1:%1").arg(free_loopback_port());
    dead.target = target.toStdString();
    spec.probes.push_back(dead);
    QString error;
    QVERIFY2(window.startRun(spec, &error), qPrintable(error));

    QMessageBox* box = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (box = window.findChild<QMessageBox*>(QStringLiteral("probeRefused"))) && box->isVisible(),
        10000);
    for (const QString& part : {QStringLiteral("probe 2"), target, QStringLiteral("refused")})
        QVERIFY2(box->text().contains(part), qPrintable(box->text()));
    QTRY_VERIFY(!window.session()->running());
    QCOMPARE(started.count(), 0);
    QCOMPARE(finished.count(), 0);

    auto* without = box->findChild<QPushButton*>(QStringLiteral("startWithoutProbe"));
    QVERIFY(without);
    without->click();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QCOMPARE(finished.at(0).at(0).value<RunSummary>().status, RunStatus::completed);
    QVERIFY2(window.liveView()->noticeText().contains(target),
             qPrintable(window.liveView()->noticeText()));
    QVERIFY(graph(window.liveView()->chart(), QStringLiteral("load1")));

    QTRY_VERIFY_WITH_TIMEOUT(window.historyView()->model()->rowCount() >= 1, 10000);
    RunStore store(default_database_path(), Access::read);
    const auto runs = store.list();
    QVERIFY(!runs.empty());
    bool named = false;
    for (const RunEvent& e : store.events(runs.front().id))
        named |= e.kind == "error" && QString::fromStdString(e.text).contains(target);
    QVERIFY(named);
}

// The cache collapse must be on the run's time axis: the server's memory against its limit,
// its evictions, items and hit rate, live and from the store; loopback traffic is drawn.
void LiveRunTest::serverProbesAreChartedLiveAndStored() {
    test::MemcachedServer server;
    MainWindow window;
    QSignalSpy finished(&window, &MainWindow::runFinished);
    RunSpec spec = cache_spec(server.endpoint(), 2.0);
    ProbeSpec local;
    local.per_core = true;
    spec.probes.push_back(local);
    ProbeSpec memcached;
    memcached.type = ProbeSpec::Type::memcached;
    memcached.target = server.endpoint();
    spec.probes.push_back(memcached);
    QString error;
    QVERIFY2(window.startRun(spec, &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    // One line per core of this machine, and the disks' bytes (this machine has disks in
    // /proc/diskstats: the probe read them).
    QStringList names = {QStringLiteral("used"),
                         QStringLiteral("limit"),
                         QStringLiteral("evictions/s"),
                         QStringLiteral("items"),
                         QStringLiteral("server hit rate"),
                         QStringLiteral("lo (the run's traffic)"),
                         QStringLiteral("read"),
                         QStringLiteral("write")};
    QFile stat(QStringLiteral("/proc/stat"));
    QVERIFY(stat.open(QIODevice::ReadOnly));
    const int cores = int(QString::fromLatin1(stat.readAll())
                              .split(QLatin1Char('\n'))
                              .filter(QRegularExpression(QStringLiteral("^cpu\\d+ ")))
                              .size());
    QVERIFY(cores >= 1);
    for (int core = 0; core < cores; ++core)
        names << QStringLiteral("cpu%1").arg(core);
    QVERIFY(!graph(window.liveView()->chart(), QStringLiteral("cpu%1").arg(cores)));
    for (const QString& name : names) {
        QCPGraph* g = graph(window.liveView()->chart(), name);
        QVERIFY2(g && g->dataCount() >= 2, qPrintable(name));
    }
    QCPGraph* limit = graph(window.liveView()->chart(), QStringLiteral("limit"));
    QCOMPARE(limit->data()->at(0)->value, double(server.stat("limit_maxbytes")));

    QTRY_VERIFY_WITH_TIMEOUT(window.historyView()->model()->rowCount() >= 1, 10000);
    const int64_t id = RunStore(default_database_path(), Access::read).list().front().id;
    StoredRunView stored(default_database_path());
    QSignalSpy loaded(&stored, &StoredRunView::runLoaded);
    stored.open(id);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
    for (const QString& name : names) {
        QCPGraph* g = graph(stored.chart(), name);
        QVERIFY2(g && g->dataCount() >= 2, qPrintable(name));
    }
}

// Probes' panels come with their first samples, in whatever order the probes answer: laid out
// hosts first, then memcached, then JVMs, each by its name, the same every run.
void LiveRunTest::probePanelsKeepOneOrderWhicheverProbeComesFirst() {
    RunSpec spec = cache_spec("127.0.0.1:1", 10);
    ProbeSpec memcached;
    memcached.type = ProbeSpec::Type::memcached;
    memcached.target = "127.0.0.1:1";
    spec.probes = {ProbeSpec{}, memcached};
    const ProbeSample host{1000, "local", "host", {{"cpu_user", 10.0}, {"load1", 0.5}}, false};
    const ProbeSample cache{1000, "memcached 127.0.0.1:1", "memcached", {{"bytes", 100}}, false};
    const auto layout = [&](const std::vector<ProbeSample>& arrivals) {
        LiveView view;
        view.begin(spec);
        for (const auto& s : arrivals)
            view.addProbeSample(s);
        QStringList titles;
        for (const int panel : view.chart()->panelsInOrder())
            titles << view.chart()->panelTitle(panel);
        return titles;
    };
    const QStringList hostFirst = layout({host, cache});
    const QStringList cacheFirst = layout({cache, host});
    QCOMPARE(cacheFirst, hostFirst);
    const auto at = [&](const QString& prefix) {
        for (int i = 0; i < hostFirst.size(); ++i)
            if (hostFirst[i].startsWith(prefix, Qt::CaseInsensitive)) return i;
        return -1;
    };
    QVERIFY2(at(QStringLiteral("Host CPU")) >= 0 && at(QStringLiteral("memcached")) >= 0,
             qPrintable(hostFirst.join(QLatin1Char('|'))));
    QVERIFY(at(QStringLiteral("Host CPU")) < at(QStringLiteral("memcached")));
    QVERIFY(at(QStringLiteral("Latency")) < at(QStringLiteral("Host CPU")));
}

// A prometheus probe's samples: a panel titled after each metric (what precedes '{'), a line
// per label set in it, drawn as the keys first come; after the host panels.
void LiveRunTest::prometheusPanelPerMetricLinePerLabelSet() {
    RunSpec spec = cache_spec("127.0.0.1:1", 10);
    ProbeSpec prom;
    prom.type = ProbeSpec::Type::prometheus;
    prom.url = "http://127.0.0.1:9/metrics";
    prom.metrics = {"reqs_total", "conns"};
    spec.probes = {ProbeSpec{}, prom};
    LiveView view;
    view.begin(spec);
    const std::string source = "prometheus http://127.0.0.1:9/metrics";
    view.addProbeSample({1000,
                         source,
                         "prometheus",
                         {{"prom.reqs_total:rate{code=\"200\"}", 40.0}, {"prom.conns", 3.0}},
                         false});
    view.addProbeSample({2000,
                         source,
                         "prometheus",
                         {{"prom.reqs_total:rate{code=\"200\"}", 50.0},
                          {"prom.reqs_total:rate{code=\"404\"}", 2.0},
                          {"prom.conns", 4.0}},
                         false});
    view.addProbeSample({1000, "local", "host", {{"cpu_user", 10.0}}, false});
    QStringList titles;
    for (const int panel : view.chart()->panelsInOrder())
        titles << view.chart()->panelTitle(panel);
    const auto at = [&](const QString& part) {
        for (int i = 0; i < titles.size(); ++i)
            if (titles[i].contains(part)) return i;
        return -1;
    };
    const QString joined = titles.join(QLatin1Char('|'));
    QVERIFY2(at(QStringLiteral("(reqs_total:rate)")) >= 0, qPrintable(joined));
    QVERIFY2(at(QStringLiteral("(conns)")) >= 0, qPrintable(joined));
    QVERIFY2(at(QStringLiteral("Host CPU")) < at(QStringLiteral("(conns)")), qPrintable(joined));
    QCPGraph* ok = graph(view.chart(), QStringLiteral("{code=\"200\"}"));
    QCPGraph* missing = graph(view.chart(), QStringLiteral("{code=\"404\"}"));
    QCPGraph* conns = graph(view.chart(), QStringLiteral("conns"));
    QVERIFY(ok && missing && conns);
    QCOMPARE(ok->dataCount(), 2);
    QCOMPARE(missing->dataCount(), 1);
    QCOMPARE(conns->dataCount(), 2);
    QCOMPARE(ok->valueAxis(), missing->valueAxis());
    QVERIFY(ok->valueAxis() != conns->valueAxis());

    // Series over the probe's cap: each of its panels says how many, the host's none.
    view.addProbeSample(
        {3000,
         source,
         "prometheus",
         {{"prom.reqs_total:rate{code=\"200\"}", 45.0}, {"prom.conns", 4.0}, {"hidden_series", 7}},
         false});
    int told = 0;
    for (const int panel : view.chart()->panelsInOrder()) {
        const QString title = view.chart()->panelTitle(panel);
        const bool prometheus = title.contains(QStringLiteral("(reqs_total:rate)")) ||
                                title.contains(QStringLiteral("(conns)"));
        QCOMPARE(title.contains(QStringLiteral("7 more series not shown")), prometheus);
        told += prometheus;
    }
    QCOMPARE(told, 2);
    QVERIFY(!graph(view.chart(), QStringLiteral("hidden_series")));
}

void LiveRunTest::processPanelsStackItsCpuAndDrawItsRss() {
    RunSpec spec = cache_spec("127.0.0.1:1", 10);
    ProbeSpec process;
    process.type = ProbeSpec::Type::process;
    process.match = "java";
    spec.probes = {process};
    LiveView view;
    view.begin(spec);
    const std::string source = "process local 'java'";
    view.addProbeSample({1000,
                         source,
                         "process",
                         {{"cpu_user_pct", 80.0},
                          {"cpu_system_pct", 5.0},
                          {"rss", 4096.0},
                          {"thread.hot-alpha.cpu_pct", 40.0}},
                         false});
    view.addProbeSample({2000, source, "process", nlohmann::json::object(), true});
    QStringList titles;
    for (const int panel : view.chart()->panelsInOrder())
        titles << view.chart()->panelTitle(panel);
    const QString joined = titles.join(QLatin1Char('|'));
    QVERIFY2(joined.contains(QStringLiteral("CPU % of a core")), qPrintable(joined));
    QVERIFY2(joined.contains(QStringLiteral("RSS B")), qPrintable(joined));
    QCPGraph* both = graph(view.chart(), QStringLiteral("+system"));
    QCPGraph* user = graph(view.chart(), QStringLiteral("user"));
    QCPGraph* rss = graph(view.chart(), QStringLiteral("RSS"));
    QVERIFY(both && user && rss);
    QCOMPARE(both->dataCount(), 1);  // the gap draws nothing
    QCOMPARE(both->data()->at(0)->value, 85.0);
    QCOMPARE(user->data()->at(0)->value, 80.0);
    QCOMPARE(rss->data()->at(0)->value, 4096.0);
}

// A Redis probe beside a run: its memory against maxmemory, evictions, ops, clients and the
// server's own GET and SET percentiles, live and from the store, as INFO has them.
void LiveRunTest::redisProbeIsChartedLiveAndStored() {
    test::MemcachedServer server;
    test::RedisServer redis({"--maxmemory", "8mb", "--maxmemory-policy", "allkeys-lru"});
    redis.cli({"SET", "k", "v"});
    redis.cli({"GET", "k"});
    MainWindow window;
    QSignalSpy finished(&window, &MainWindow::runFinished);
    RunSpec spec = cache_spec(server.endpoint(), 2.0);
    ProbeSpec probe;
    probe.type = ProbeSpec::Type::redis;
    probe.server = redis.endpoint();
    spec.probes.push_back(probe);
    QString error;
    QVERIFY2(window.startRun(spec, &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    const QStringList names = {QStringLiteral("maxmemory"),   QStringLiteral("used"),
                               QStringLiteral("evictions/s"), QStringLiteral("expired/s"),
                               QStringLiteral("ops/s"),       QStringLiteral("connected"),
                               QStringLiteral("blocked"),     QStringLiteral("GET p50"),
                               QStringLiteral("GET p99"),     QStringLiteral("SET p99.9")};
    for (const QString& name : names) {
        QCPGraph* g = graph(window.liveView()->chart(), name);
        QVERIFY2(g && g->dataCount() >= 2, qPrintable(name));
    }
    QCOMPARE(graph(window.liveView()->chart(), QStringLiteral("maxmemory"))->data()->at(0)->value,
             double(redis.info_number("memory", "maxmemory")));
    // Nothing sent GET since: the server's percentiles are those it prints now.
    const QString get =
        QString::fromStdString(redis.info("latencystats").at("latency_percentiles_usec_get"));
    const QRegularExpressionMatch p99 =
        QRegularExpression(QStringLiteral("p99=([0-9.]+)")).match(get);
    QVERIFY2(p99.hasMatch(), qPrintable(get));
    QCOMPARE(graph(window.liveView()->chart(), QStringLiteral("GET p99"))->data()->at(0)->value,
             p99.captured(1).toDouble());

    QTRY_VERIFY_WITH_TIMEOUT(window.historyView()->model()->rowCount() >= 1, 10000);
    const int64_t id = RunStore(default_database_path(), Access::read).list().front().id;
    StoredRunView stored(default_database_path());
    QSignalSpy loaded(&stored, &StoredRunView::runLoaded);
    stored.open(id);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
    for (const QString& name : names) {
        QCPGraph* g = graph(stored.chart(), name);
        QVERIFY2(g && g->dataCount() >= 2, qPrintable(name));
    }
}

// A kept plan draws as a total on the planned line (get and set are its shares); a phase's
// drain, which arrives once the next phase began, is no dip in that phase; dropped ops show.
void LiveRunTest::throughputTotalKeepsThePlanAndDrainsAreNotDrawn() {
    LiveView view;
    view.begin(cache_spec("127.0.0.1:1", 10));
    const auto sample = [](int phase, int64_t t_ms, int64_t interval_ms, uint64_t gets,
                           uint64_t sets) {
        IntervalSample s;
        s.phase = phase;
        s.t_ms = t_ms;
        s.interval_ms = interval_ms;
        s.ops["get"].count = gets;
        s.ops["set"].count = sets;
        s.sent = gets + sets;
        return s;
    };
    IntervalSample kept = sample(0, 1000, 1000, 4500, 500);
    kept.planned_rate = 5000;
    view.addSample(kept);
    IntervalSample next = sample(1, 2000, 1000, 54000, 6000);
    next.dropped = 30;
    view.addSample(next);
    IntervalSample drain = sample(0, 2100, 1100, 20, 2);
    drain.sent = 0;
    view.addSample(drain);

    const TimeChart* chart = view.chart();
    QCPGraph* total = graph(chart, QStringLiteral("total"));
    QCPGraph* planned = graph(chart, QStringLiteral("planned"));
    QVERIFY(total && planned);
    QCOMPARE(total->data()->at(0)->value, planned->data()->at(0)->value);
    QCOMPARE(total->dataCount(), 2);
    QCOMPARE(total->data()->at(1)->value, 60000.0);
    QCOMPARE(graph(chart, QStringLiteral("get"))->dataCount(), 2);
    QCOMPARE(view.ticks(), 2);
    QCOMPARE(graph(chart, QStringLiteral("dropped/s"))->data()->at(1)->value, 30.0);
    auto* rate = view.findChildren<StatTile*>().front();
    QCOMPARE(rate->value(), QLocale().toString(60000.0, 'f', 0));
}

// An open-model tick's p99 service time is its own dotted line beside the p99 from the
// intended send; ticks of a closed run (no service time) add no such line.
void LiveRunTest::serviceTimeIsALineOnlyWhereItWasMeasured() {
    LiveView view;
    view.begin(cache_spec("127.0.0.1:1", 10));
    IntervalSample closed;
    closed.t_ms = closed.interval_ms = 1000;
    closed.ops["get"].count = 100;
    closed.ops["get"].latency.record_n(500, 100);
    view.addSample(closed);
    QVERIFY(!graph(view.chart(), QStringLiteral("p99 service")));

    IntervalSample open = closed;
    open.t_ms = 2000;
    open.ops["get"].latency.reset();
    open.ops["get"].latency.record_n(40'000, 100);  // waited 39 ms for a connection
    open.ops["get"].service.record_n(1'000, 100);
    view.addSample(open);
    QCPGraph* service = graph(view.chart(), QStringLiteral("p99 service"));
    QVERIFY(service);
    QCOMPARE(service->dataCount(), 1);
    QCOMPARE(service->data()->at(0)->value, 1.0);
    QCOMPARE(graph(view.chart(), QStringLiteral("p99"))->data()->at(1)->value, 40.0);
}

// A note made during a run ("heap dump here") is an event of the run: stored, drawn on the
// stored run's time axis, listed in its report; one added on the stored run's axis too.
void LiveRunTest::annotationRoundTripsThroughTheStoreAndTheReport() {
    const test::OwnDataHome home;
    test::MemcachedServer server;
    MainWindow window;
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QString error;
    QVERIFY2(window.startRun(cache_spec(server.endpoint(), 2.0), &error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(window.liveView()->ticks() >= 2, 10000);
    auto* note = window.liveView()->findChild<QPushButton*>(QStringLiteral("noteButton"));
    QVERIFY(note && note->isEnabled());
    const int markers = window.liveView()->chart()->markerCount();
    QVERIFY(window.session()->annotate(QStringLiteral("heap dump here")));
    QTRY_COMPARE_WITH_TIMEOUT(window.liveView()->chart()->markerCount(), markers + 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);

    RunStore store(default_database_path(), Access::read);
    const int64_t id = store.list().front().id;
    const std::optional<RunEvent> stamped = first_note(store, id);
    QVERIFY(stamped);
    QCOMPARE(stamped->text, std::string("heap dump here"));
    QVERIFY(stamped->t_ms >= 250 && stamped->t_ms <= 2500);

    StoredRunView stored(default_database_path());
    QSignalSpy loaded(&stored, &StoredRunView::runLoaded);
    stored.open(id);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
    const int drawn = stored.chart()->markerCount();
    QVERIFY(stored.reportText().contains(QStringLiteral("note: heap dump here")));
    QVERIFY2(stored.addNote(1.5, QStringLiteral("V in the hits"), &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 10000);
    QCOMPARE(stored.chart()->markerCount(), drawn + 1);
    QVERIFY(stored.reportText().contains(QStringLiteral("note: V in the hits")));
    const std::string markdown = report_markdown(load_report(store, id));
    QVERIFY(markdown.find("note: heap dump here") != std::string::npos);
}

// Note… pressed at a tick; the text typed while eight more ticks came: the note stands where
// it was asked for, before those ticks, not where OK was pressed (22 s had become 31 s).
void LiveRunTest::aNoteStandsWhereItWasAskedFor() {
    const test::OwnDataHome home;
    test::MemcachedServer server;
    MainWindow window;
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QString error;
    QVERIFY2(window.startRun(cache_spec(server.endpoint(), 6.0), &error), qPrintable(error));
    LiveView* live = window.liveView();
    QTRY_VERIFY_WITH_TIMEOUT(live->ticks() >= 2, 10000);
    const int asked_at = live->ticks();
    QTimer typing;
    connect(&typing, &QTimer::timeout, [&] {
        auto* input = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
        if (!input || live->ticks() < asked_at + 8) return;
        input->setTextValue(QStringLiteral("asked here"));
        input->accept();
    });
    typing.start(20);
    auto* note = live->findChild<QPushButton*>(QStringLiteral("noteButton"));
    QVERIFY(note && note->isEnabled());
    note->click();  // returns once the dialog is answered
    typing.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    RunStore store(default_database_path(), Access::read);
    const int64_t id = store.list().front().id;
    const std::optional<RunEvent> stamped = first_note(store, id);
    QVERIFY(stamped);
    QCOMPARE(stamped->text, std::string("asked here"));
    std::vector<int64_t> ticks;
    for (const auto& s : store.samples(id))
        if (!s.drain && s.interval_ms > 0) ticks.push_back(s.t_ms);
    QVERIFY(int(ticks.size()) > asked_at + 8);
    // Asked after tick `asked_at` was drawn, and before tick asked_at + 8 was even made.
    QVERIFY2(
        stamped->t_ms >= ticks[size_t(asked_at) - 1] && stamped->t_ms < ticks[size_t(asked_at) + 7],
        qPrintable(QStringLiteral("note at %1 ms, ticks %2 and %3 at %4 and %5 ms")
                       .arg(stamped->t_ms)
                       .arg(asked_at)
                       .arg(asked_at + 8)
                       .arg(ticks[size_t(asked_at) - 1])
                       .arg(ticks[size_t(asked_at) + 7])));
}

// File → Import results…: vegeta's JSON lines read off the GUI thread, the progress bar full,
// the run in the history; the same file again fails, naming the run it became.
void LiveRunTest::importLandsInTheHistoryWithItsProgress() {
    const test::OwnDataHome home;
    home.dir().write("results.json", test::vegeta_results(50));
    MainWindow window;
    QSignalSpy done(&window, &MainWindow::importFinished);
    window.importFile(QString::fromStdString(home.dir().file("results.json")));
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
    auto* bar = window.findChild<QProgressBar*>(QStringLiteral("importProgress"));
    QVERIFY(bar);
    QCOMPARE(bar->value(), 100);
    const qint64 id = done.at(0).at(0).toLongLong();
    QTRY_VERIFY_WITH_TIMEOUT(window.historyView()->model()->rowCount() >= 1, 10000);
    const RunInfo& run = window.historyView()->model()->run(0);
    QCOMPARE(run.id, id);
    QCOMPARE(run.status, std::string("imported"));
    QCOMPARE(run.figures.ops, uint64_t(50));
}

// History → Export bundle… of two runs, the runs deleted, the bundle dropped on the window:
// both come back with their figures, under new ids; dropped again, it is refused by content.
void LiveRunTest::bundleGoesOutOfHistoryAndDropsBackIn() {
    const test::OwnDataHome home;
    home.dir().write("a.json", test::vegeta_results(50));
    home.dir().write("b.json", test::vegeta_results(80));
    MainWindow window;
    QSignalSpy imported(&window, &MainWindow::importFinished);
    for (const char* name : {"a.json", "b.json"}) {
        window.importFile(QString::fromStdString(home.dir().file(name)));
        QTRY_COMPARE_WITH_TIMEOUT(imported.count(), name[0] == 'a' ? 1 : 2, 10000);
    }
    const QList<qint64> ids = {imported.at(0).at(0).toLongLong(),
                               imported.at(1).at(0).toLongLong()};
    HistoryView* history = window.historyView();
    QTRY_VERIFY_WITH_TIMEOUT(history->model()->rowCount() == 2, 10000);
    history->selectRuns(ids);
    QTRY_VERIFY(history->bundleButton()->isEnabled());
    QSignalSpy written(history, &HistoryView::bundleExported);
    const QString file = QString::fromStdString(home.dir().file("two.perflab"));
    history->exportBundle(file);
    QTRY_COMPARE_WITH_TIMEOUT(written.count(), 1, 10000);
    QCOMPARE(written.at(0).at(1).toInt(), 2);
    {
        RunStore store(default_database_path(), Access::write);
        for (const qint64 id : ids)
            store.remove(id);
    }
    history->refresh();
    QTRY_COMPARE_WITH_TIMEOUT(history->model()->rowCount(), 0, 10000);

    const auto drop = [&window, &file] {
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(file)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent event(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &event);
    };
    drop();
    QTRY_COMPARE_WITH_TIMEOUT(imported.count(), 3, 10000);
    // The list shows the store once its refresh after the import came back.
    QTRY_VERIFY_WITH_TIMEOUT(history->model()->rowCount() == 2, 10000);
    std::vector<uint64_t> ops;
    for (int row = 0; row < 2; ++row) {
        const RunInfo& run = history->model()->run(row);
        QVERIFY(!ids.contains(run.id));
        QCOMPARE(run.status, std::string("imported"));
        ops.push_back(run.figures.ops);
    }
    std::sort(ops.begin(), ops.end());
    QCOMPARE(ops, (std::vector<uint64_t>{50, 80}));

    QSignalSpy refused(&window, &MainWindow::importFailed);
    drop();
    QTRY_COMPARE_WITH_TIMEOUT(refused.count(), 1, 10000);
    QVERIFY2(refused.at(0).at(0).toString().contains(QStringLiteral("stored here already")),
             qPrintable(refused.at(0).at(0).toString()));
}

// A run that two agents send (real sshd on loopback, each starting this build's perflab
// agent): the live view has a tile per agent, and the stored run keeps each one's share and
// machine.
void LiveRunTest::agentsRunShowsATilePerAgentAndStoresTheirShares() {
    const test::OwnDataHome home;
    test::MemcachedServer server;
    test::SshdServer a, b;
    std::filesystem::create_directories(home.dir().file("perflab"));
    home.dir().write("perflab/known_hosts",
                     test::read_file(a.known_hosts()) + test::read_file(b.known_hosts()));
    RunSpec spec = cache_spec(server.endpoint(), 1.5);
    for (const auto* host : {&a, &b}) {
        AgentSpec agent;
        agent.host = host->target();
        agent.key = host->client_key();
        agent.program = PERFLAB_BINARY;
        spec.agents.push_back(agent);
    }
    MainWindow window;
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QString error;
    QVERIFY2(window.startRun(spec, &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    const auto summary = finished.at(0).at(0).value<RunSummary>();
    QVERIFY2(summary.status == RunStatus::completed, summary.error.c_str());
    QCOMPARE(summary.agents.size(), size_t(2));
    const AgentTiles* tiles = window.liveView()->agentTiles();
    QVERIFY(!tiles->isHidden());
    QCOMPARE(tiles->count(), 2);
    for (int i = 0; i < 2; ++i) {
        const QString text = tiles->text(i);
        QVERIFY2(text.startsWith(QString::fromStdString(spec.agents[size_t(i)].host) + ": "),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral(" ops/s · CPU ")), qPrintable(text));
    }
    uint64_t agent_ops = 0;
    for (const auto& agent : summary.agents)
        agent_ops += agent.totals.total_ops();
    QCOMPARE(agent_ops, summary.overall.totals.total_ops());
    QVERIFY(agent_ops > 0);
    // As the other stored-run checks here: the history shows the run first. A run that was
    // not stored says why among the live view's notices.
    QTRY_VERIFY2_WITH_TIMEOUT(window.historyView()->model()->rowCount() >= 1,
                              qPrintable(window.liveView()->noticeText()), 10000);
    RunStore store(default_database_path(), Access::read);
    const auto runs = store.list();
    QCOMPARE(runs.size(), size_t(1));
    const RunSummary stored = store.summary(runs[0].id);
    QCOMPARE(stored.agents.size(), size_t(2));
    QCOMPARE(stored.agents[1].totals.total_ops(), summary.agents[1].totals.total_ops());
    bool agent_machine = false;
    for (const auto& h : store.hosts(runs[0].id))
        agent_machine |= h.role == "agent" && !h.profile.cpu_model.empty();
    QVERIFY(agent_machine);

    // Each agent's line, live and in the stored run's view: a point per tick it sent, whose
    // ops/s over the tick's length add up to the ops the store kept of that agent's ticks.
    QSignalSpy loaded(window.historyView()->runView(), &StoredRunView::runLoaded);
    window.historyView()->openRun(runs[0].id);
    QVERIFY(loaded.wait(10000));
    const auto samples = store.samples(runs[0].id);
    for (const auto& agent : spec.agents) {
        const QString host = QString::fromStdString(agent.host);
        QVERIFY2(graph(window.liveView()->chart(), host), qPrintable(host));
        const QCPGraph* line = graph(window.historyView()->runView()->chart(), host);
        QVERIFY2(line, qPrintable(host));
        uint64_t ops = 0;
        double drawn = 0;
        int points = 0;
        for (const auto& s : samples) {
            if (s.drain || s.interval_ms <= 0) continue;
            for (const auto& tick : s.agents) {
                if (tick.host != agent.host || tick.lost) continue;
                ops += tick.ops;
                drawn += line->data()->at(points)->value * s.seconds();
                ++points;
            }
        }
        QVERIFY(ops > 0);
        QCOMPARE(line->dataCount(), points);
        QVERIFY2(std::abs(drawn - double(ops)) < 0.5,
                 qPrintable(QStringLiteral("%1 drawn, %2 stored").arg(drawn).arg(ops)));
    }
}

void LiveRunTest::agentAtItsLimitRaisesTheBanner() {
    LiveView view;
    view.begin(cache_spec("127.0.0.1:1", 10));
    IntervalSample s;
    s.t_ms = 1000;
    s.interval_ms = 1000;
    s.ops["get"].count = 2000;
    AgentTick calm;
    calm.host = "root@10.0.0.2:22";
    calm.ops = 1000;
    calm.cpu_pct = 40;
    AgentTick busy = calm;
    busy.host = "root@10.0.0.3:22";
    s.agents = {calm, busy};
    view.addSample(s);
    QVERIFY(!view.generatorLimited());
    QCOMPARE(view.agentTiles()->text(1),
             QStringLiteral("root@10.0.0.3:22: 1,000 ops/s · CPU 40% · 0 late"));
    s.t_ms = 2000;
    s.agents[1].cpu_pct = 97;
    view.addSample(s);
    QVERIFY(view.generatorLimited());
    QVERIFY(view.agentTiles()->text(1).contains(QStringLiteral("CPU 97%")));
}

namespace {

// GET `url` ("http://127.0.0.1:PORT/metrics"): its body, or "" when nothing answered.
QString http_get(const QString& url) {
    const QUrl u(url);
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(quint16(u.port()));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::string reply;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
        const std::string request = "GET " + u.path().toStdString() + " HTTP/1.0\r\n\r\n";
        ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
        char buf[4096];
        for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;)
            reply.append(buf, size_t(n));
    }
    ::close(fd);
    const size_t body = reply.find("\r\n\r\n");
    return body == std::string::npos ? QString() : QString::fromStdString(reply.substr(body + 4));
}

// The sum of a counter's samples in an exposition.
double counter_sum(const QString& text, const QString& name) {
    double sum = 0;
    const QRegularExpression line(QStringLiteral("^%1\\{[^}]*\\} (\\S+)$").arg(name),
                                  QRegularExpression::MultilineOption);
    for (auto it = line.globalMatch(text); it.hasNext();)
        sum += it.next().captured(1).toDouble();
    return sum;
}

}  // namespace

// Run → Live metrics for Prometheus…: the window's runs are served as `run --metrics-listen`
// serves them, the endpoint staying up with the last figures once the run ended.
void LiveRunTest::liveMetricsAreServedWhileTheRunGoes() {
    test::MemcachedServer server;
    MainWindow window;
    window.setMetricsAddress(QStringLiteral("127.0.0.1:0"));
    QSignalSpy sampled(window.session()->bridge(), &RunBridge::sampled);
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QString error;
    QVERIFY2(window.startRun(cache_spec(server.endpoint(), 2.0), &error), qPrintable(error));
    const QString url = window.session()->metricsUrl();
    QVERIFY(url.startsWith(QStringLiteral("http://127.0.0.1:")));
    QVERIFY(window.statusBar()->currentMessage().contains(url));
    QVERIFY(sampled.wait(30000));
    const QString live = http_get(url);
    QVERIFY2(live.contains(QStringLiteral("perflab_running 1")), qPrintable(live));
    QVERIFY2(live.contains(QStringLiteral("perflab_requests_total{op=\"get\",phase=\"0\"}")),
             qPrintable(live));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    const auto summary = finished.at(0).at(0).value<RunSummary>();
    const QString last = http_get(url);
    QVERIFY2(last.contains(QStringLiteral("perflab_running 0")), qPrintable(last));
    QCOMPARE(counter_sum(last, QStringLiteral("perflab_requests_total")),
             double(summary.overall.totals.total_ops()));

    // An address that cannot be listened on stops the start, saying so.
    window.setMetricsAddress(QStringLiteral("nonsense"));
    QVERIFY(!window.startRun(cache_spec(server.endpoint(), 1.0), &error));
    QVERIFY2(error.contains(QStringLiteral("Live metrics")), qPrintable(error));
    window.setMetricsAddress({});  // the settings outlive the test
    QVERIFY(QSettings().value(QStringLiteral("metrics/listen")).toString().isEmpty());
}

int run_live_run_test(int argc, char** argv) {
    LiveRunTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "live_run_test.moc"
