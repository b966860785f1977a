// SPDX-License-Identifier: MIT
// The window's guard: every spec template PerfLab ships is started in the window, and a stored
// run of every kind (cache, HTTP, many targets, SLO, search, agents, imported, summary only,
// interrupted) is opened in the History, at 1024×700 and at 1600×1000; six of them are
// compared; each one's chart and PDF report are exported. Nothing may crash and Qt may print
// no warning. Real servers: a memcached, an HTTP server and two sshd for the agents.
#include <qcustomplot.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "chart_export.h"
#include "compare_view.h"
#include "history_view.h"
#include "http_test_server.h"
#include "live_view.h"
#include "main_window.h"
#include "memcached_server.h"
#include "own_data_home.h"
#include "pdf_text.h"
#include "percentile_chart.h"
#include "process.h"
#include "redis_server.h"
#include "run_export.h"
#include "run_list_model.h"
#include "run_session.h"
#include "run_store.h"
#include "sqlite.h"
#include "sshd_server.h"
#include "store_writer.h"
#include "stored_run.h"
#include "stored_run_view.h"
#include "tick_text.h"
#include "time_chart.h"
#include "ui_tests.h"

using namespace perflab;
using nlohmann::json;

namespace {

constexpr int kRunMs = 60000;

// A QVERIFY in a helper returns from the helper alone: the test stops at its first failure too.
#define GUARD(call)                             \
    do {                                        \
        call;                                   \
        if (QTest::currentTestFailed()) return; \
    } while (false)
const QSize kSmall(1024, 700);
const QSize kLarge(1600, 1000);

// Qt's warnings and criticals while the guard runs, passed on to the handler before it.
QStringList g_warnings;
QtMessageHandler g_previous = nullptr;

void record_warning(QtMsgType type, const QMessageLogContext& context, const QString& text) {
    // The offscreen platform's own note that it has no window manager to tell sizes to.
    const bool platform = text.contains(QLatin1String("does not support propagateSizeHints"));
    if ((type == QtWarningMsg || type == QtCriticalMsg) && !platform) g_warnings << text;
    if (g_previous) g_previous(type, context, text);
}

json shipped_template(const QString& file) {
    QFile f(QStringLiteral(":/specs/") + file);
    if (!f.open(QIODevice::ReadOnly)) qFatal("no template %s", qPrintable(file));
    return json::parse(f.readAll().toStdString());
}

// A template aimed at the test's servers (a Redis template at its redis-server) and cut to
// seconds: each phase and search step 1 s, a search up to twice its first rate. Everything
// else (connections, sizes, checks, probes) stays as shipped.
json shortened(json j, const std::string& memcached, const std::string& redis,
               const std::string& url) {
    if (j.contains("cache"))
        j["cache"]["servers"] = {j["cache"].value("protocol", "") == "redis" ? redis : memcached};
    if (j.contains("http"))
        for (auto& target : j["http"]["targets"])
            target["url"] = url;
    if (j.contains("probes"))
        for (auto& probe : j["probes"])
            if (probe.contains("memcached")) probe["memcached"] = memcached;
    if (j.contains("phases"))
        for (auto& phase : j["phases"])
            phase["duration_s"] = 1;
    if (j.contains("search")) {
        auto& s = j["search"];
        s["step_s"] = 1;
        s["warmup_s"] = 1;
        s["rate_to"] = 2 * s["rate_from"].get<double>();
    }
    if (j.contains("slo") && j["slo"].contains("window_s")) j["slo"]["window_s"] = 1;
    return j;
}

json cache_run(const std::string& memcached, const std::string& name) {
    return {{"name", name},
            {"kind", "cache"},
            {"tick_ms", 250},
            {"phases", {{{"duration_s", 1.5}, {"rate", 400}, {"concurrency", 2}}}},
            {"cache",
             {{"servers", {memcached}},
              {"keys", {{"count", 1000}}},
              {"value_size", {{"min", 64}, {"max", 256}}}}}};
}

}  // namespace

class WindowGuardTest : public QObject {
    Q_OBJECT
  private slots:
    void init();
    void cleanup();
    void everyTemplateAndEveryKindOfRunShowsAndExports();
    void drainsAreNoTicksOfTheTimeline();

  private:
    void resizeAndPaint(QSize size);
    void startAndFinish(const json& spec, const QString& what);
    void openAndExport(int64_t id, const QString& what);

    std::unique_ptr<MainWindow> window_;
    std::unique_ptr<test::TempDir> out_;
};

void WindowGuardTest::init() {
    g_warnings.clear();
    g_previous = qInstallMessageHandler(record_warning);
}

void WindowGuardTest::cleanup() {
    qInstallMessageHandler(g_previous);
    g_previous = nullptr;
}

// The visible widgets that ask for the most width, for a window wider than it was asked to be.
QString widest_minimums(const QWidget* window) {
    QList<QPair<int, QString>> widths;
    for (const QWidget* w : window->findChildren<QWidget*>())
        if (w->isVisible())
            widths.append(
                {w->minimumSizeHint().width(),
                 QString::fromLatin1(w->metaObject()->className()) + " " + w->objectName()});
    std::sort(widths.begin(), widths.end(), [](const auto& a, const auto& b) { return a > b; });
    QStringList out;
    for (qsizetype i = 0; i < std::min<qsizetype>(8, widths.size()); ++i)
        out << QStringLiteral("%1 %2").arg(widths[i].first).arg(widths[i].second);
    return out.join(QStringLiteral("; "));
}

// A resize lays the window out again and repaints it, charts included. The window keeps the
// size it was given: nothing in it may ask for more (at 1024 px, Stop would be off screen).
void WindowGuardTest::resizeAndPaint(QSize size) {
    window_->resize(size);
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    window_->repaint();
    QCoreApplication::processEvents();
    QVERIFY2(window_->width() <= size.width(),
             qPrintable(QStringLiteral("%1 px wide: %2")
                            .arg(window_->width())
                            .arg(widest_minimums(window_.get()))));
}

void WindowGuardTest::startAndFinish(const json& spec, const QString& what) {
    qInfo("start %s", qPrintable(what));
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    GUARD(resizeAndPaint(kSmall));
    const SpecResult parsed = parse_spec(spec);
    QVERIFY2(parsed, qPrintable(what + ": " + QString::fromStdString(parsed.error_text())));
    QSignalSpy refused(window_->session(), &RunSession::probeRefused);
    QString error;
    QVERIFY2(window_->startRun(*parsed.spec, &error), qPrintable(what + ": " + error));
    const auto* title = window_->liveView()->findChild<TickText*>(QStringLiteral("runTitle"));
    QVERIFY(title);
    const auto ticking = [&] {
        return title->text() == QString::fromStdString(parsed.spec->name) &&
               window_->liveView()->ticks() >= 1;
    };
    QTRY_VERIFY2_WITH_TIMEOUT(ticking() || refused.count() == 1, qPrintable(what), kRunMs);
    // A probe the template names that this machine lacks (the search's JVM): the user starts
    // without it, as the window offers.
    if (refused.count() == 1) {
        auto* box = window_->findChild<QMessageBox*>(QStringLiteral("probeRefused"));
        QVERIFY(box);
        auto* without = box->findChild<QPushButton*>(QStringLiteral("startWithoutProbe"));
        QVERIFY(without);
        without->click();
        QTRY_VERIFY2_WITH_TIMEOUT(ticking(), qPrintable(what), kRunMs);
    }
    GUARD(resizeAndPaint(kLarge));
    GUARD(resizeAndPaint(kSmall));
    QTRY_VERIFY2_WITH_TIMEOUT(finished.count() == 1, qPrintable(what), kRunMs);
    GUARD(resizeAndPaint(kLarge));
}

void WindowGuardTest::openAndExport(int64_t id, const QString& what) {
    qInfo("open %s", qPrintable(what));
    StoredRunView* view = window_->historyView()->runView();
    QSignalSpy loaded(view, &StoredRunView::runLoaded);
    QSignalSpy failed(view, &StoredRunView::loadFailed);
    window_->showView(MainWindow::View::history);
    GUARD(resizeAndPaint(kSmall));
    window_->historyView()->openRun(id);
    QTRY_VERIFY2_WITH_TIMEOUT(loaded.count() + failed.count() == 1, qPrintable(what), 10000);
    QVERIFY2(failed.isEmpty(), qPrintable(what + ": " + failed.value(0).value(1).toString()));
    GUARD(resizeAndPaint(kLarge));
    GUARD(resizeAndPaint(kSmall));
    QVERIFY(view->run());
    QString error;
    const QString base = QString::fromStdString(out_->file("run-" + std::to_string(id)));
    for (const char* suffix : {".png", ".pdf", ".svg"})
        QVERIFY2(export_chart(view->chart()->plot(), base + suffix, 1200, 800, &error),
                 qPrintable(what + ": " + error));
    QVERIFY2(write_run_report(*view->run(), base + "-report.pdf", &error),
             qPrintable(what + ": " + error));
    // Numbered to its last page, its charts drawn as vector graphics.
    const QString report = base + "-report.pdf";
    const int pages = test::pdf_pages(report);
    QVERIFY2(pages >= 1, qPrintable(what));
    QVERIFY2(test::pdf_text(report, pages).contains(QStringLiteral("page %1 of %1").arg(pages)),
             qPrintable(what));
    QVERIFY2(test::pdf_images(report).isEmpty(), qPrintable(what));
}

void WindowGuardTest::everyTemplateAndEveryKindOfRunShowsAndExports() {
    const test::OwnDataHome home;
    out_ = std::make_unique<test::TempDir>();
    test::MemcachedServer memcached;
    test::RedisServer redis;
    test::HttpTestServer http;
    test::SshdServer a, b;
    std::filesystem::create_directories(home.dir().file("perflab"));
    home.dir().write("perflab/known_hosts",
                     test::read_file(a.known_hosts()) + test::read_file(b.known_hosts()));
    window_ = std::make_unique<MainWindow>();
    window_->show();

    // Every template shipped, started as a user would start it (on our servers, shorter).
    const QStringList templates = QDir(QStringLiteral(":/specs")).entryList(QDir::Files);
    QVERIFY(templates.size() >= 8);
    const auto* answer = window_->liveView()->findChild<QLabel*>(QStringLiteral("runAnswer"));
    QVERIFY(answer);
    for (const QString& file : templates) {
        GUARD(startAndFinish(
            shortened(shipped_template(file), memcached.endpoint(), redis.endpoint(), http.url()),
            file));
        // The live view turns into the run's answer when it ends.
        QVERIFY2(answer->isVisibleTo(window_->liveView()), qPrintable(file));
        QVERIFY2(answer->text().contains(QStringLiteral(" requests, ")),
                 qPrintable(answer->text()));
        if (file.contains(QStringLiteral("search")))
            QVERIFY2(answer->text().contains(QStringLiteral("Search: ")),
                     qPrintable(answer->text()));
    }

    // The kinds of run the templates do not make.
    // Named in 80 characters, as a team names its runs.
    json targets = cache_run(
        memcached.endpoint(),
        "six targets behind the gateway, keep-alive, nightly build 2026-12-01, release 22");
    targets["kind"] = "http";
    targets.erase("cache");
    targets["http"] = {{"targets", json::array()}};
    for (int i = 0; i < 6; ++i)
        targets["http"]["targets"].push_back({{"url", http.url("/t" + std::to_string(i))}});
    GUARD(startAndFinish(targets, QStringLiteral("six targets")));

    json slo = cache_run(memcached.endpoint(), "latency slo");
    slo["slo"] = {{"latency_ms", {{"p50", 50}, {"p90", 80}, {"p95", 90}, {"p99", 100}}},
                  {"error_rate", 0.01},
                  {"window_s", 1}};
    GUARD(startAndFinish(slo, QStringLiteral("latency slo")));
    // The verdict with each of its checks.
    for (const char* check : {"SLO ", "p50 ≤ 50 ms", "p99 ≤ 100 ms", "error rate ≤ 1%"})
        QVERIFY2(answer->text().contains(QString::fromUtf8(check)), qPrintable(answer->text()));

    json agents = cache_run(memcached.endpoint(), "two agents");
    for (const auto* host : {&a, &b})
        agents["agents"].push_back(
            {{"host", host->target()}, {"key", host->client_key()}, {"perflab", PERFLAB_BINARY}});
    GUARD(startAndFinish(agents, QStringLiteral("agents")));

    // Imported: memtier's JSON (its ticks are counts only: a summary-only run), a JMeter JTL
    // with Transaction Controllers (transactions beside requests) and an .hlog PerfLab wrote
    // of the SLO run.
    for (const std::string& file :
         {std::string(PERFLAB_SOURCE_DIR) + "/tests/fixtures/memtier/real-3s.json",
          std::string(PERFLAB_SOURCE_DIR) + "/tests/fuzz/corpus/jtl/jmeter-2.13-transactions.jtl",
          out_->file("first.hlog")}) {
        if (file.ends_with(".hlog")) {
            RunStore store(default_database_path(), Access::read);
            const auto runs = store.list({"", "", "latency slo"});
            QCOMPARE(int(runs.size()), 1);
            const StoredRun first = load_stored_run(store, runs.front().id);
            QString error;
            QVERIFY2(write_hlog(first, QString::fromStdString(file), &error), qPrintable(error));
        }
        QSignalSpy imported(window_.get(), &MainWindow::importFinished);
        QSignalSpy failed(window_.get(), &MainWindow::importFailed);
        window_->importFile(QString::fromStdString(file));
        QTRY_COMPARE_WITH_TIMEOUT(imported.count() + failed.count(), 1, 20000);
        QVERIFY2(failed.isEmpty(), qPrintable(QString::fromStdString(file) + ": " +
                                              failed.value(0).value(0).toString()));
    }

    // Interrupted: a run whose writer died with it.
    int64_t interrupted = 0;
    {
        StoreWriter writer(default_database_path(),
                           *parse_spec(cache_run("127.0.0.1:1", "died")).spec, HardwareProfile{});
        interrupted = writer.run_id();
        for (int i = 0; i < 4; ++i) {
            IntervalSample s;
            s.t_ms = (i + 1) * 250;
            s.interval_ms = 250;
            s.ops["get"].count = 10;
            for (int k = 0; k < 10; ++k)
                s.ops["get"].latency.record(100 + k);
            s.sent = 10;
            writer.on_sample(s);
        }
        writer.finish();
        Connection raw(default_database_path(), Connection::Mode::read_write);
        Statement q(raw, "UPDATE runs SET writer_pid = 999999999 WHERE id = ?1");
        q.bind(1, interrupted);
        q.run();
    }

    const auto runs = RunStore(default_database_path(), Access::read).list();
    QCOMPARE(int(runs.size()), int(templates.size()) + 7);
    QVERIFY(std::any_of(runs.begin(), runs.end(),
                        [](const RunInfo& r) { return r.status == "interrupted"; }));
    for (const RunInfo& run : runs)
        GUARD(openAndExport(run.id, QString::fromStdString("#" + std::to_string(run.id) + " " +
                                                           run.name + " (" + run.status + ")")));

    // Six compared: the template runs with the most series.
    QList<qint64> six;
    for (size_t i = 0; i < 6; ++i)
        six << runs[i].id;
    QSignalSpy compared(window_->compareView(), &CompareView::compared);
    window_->compareView()->compare(six);
    window_->showView(MainWindow::View::compare);
    QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 1, 20000);
    GUARD(resizeAndPaint(kLarge));
    GUARD(resizeAndPaint(kSmall));
    QString error;
    for (const auto chart : {CompareView::Chart::overTime, CompareView::Chart::percentiles})
        QVERIFY2(window_->compareView()->exportChart(
                     chart, QString::fromStdString(out_->file("compare.pdf")), 1200, 800, &error),
                 qPrintable(error));
    for (const char* report : {"compare.html", "compare.pdf"})
        QVERIFY2(window_->compareView()->exportReport(QString::fromStdString(out_->file(report)),
                                                      &error),
                 qPrintable(error));

    window_.reset();
    QVERIFY2(g_warnings.isEmpty(), qPrintable(g_warnings.join(QLatin1Char('\n'))));
}

namespace {

QCPGraph* graph(const TimeChart* chart, const QString& name) {
    for (int i = 0; i < chart->plot()->graphCount(); ++i)
        if (chart->plot()->graph(i)->name() == name) return chart->plot()->graph(i);
    return nullptr;
}

}  // namespace

// Two phases against a server that answers in 300 ms: each phase's last replies come after
// its end, in a drain sample of their own. The live chart and the stored run's chart draw a
// point per tick and none for a drain (whose rate over its short span was a dip).
void WindowGuardTest::drainsAreNoTicksOfTheTimeline() {
    const test::OwnDataHome home;
    test::HttpTestServer http;
    http.set_delay_ms(300);
    const json spec = {{"name", "drains"},
                       {"kind", "http"},
                       {"tick_ms", 250},
                       {"phases",
                        {{{"duration_s", 1}, {"rate", 20}, {"concurrency", 10}},
                         {{"duration_s", 1}, {"rate", 40}, {"concurrency", 20}}}},
                       {"http", {{"targets", {{{"url", http.url()}}}}, {"threads", 1}}}};
    window_ = std::make_unique<MainWindow>();
    window_->show();
    QSignalSpy finished(window_.get(), &MainWindow::runFinished);
    QString error;
    QVERIFY2(window_->startRun(*parse_spec(spec).spec, &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunMs);
    const auto runs = RunStore(default_database_path(), Access::read).list();
    QCOMPARE(int(runs.size()), 1);
    const auto samples = RunStore(default_database_path(), Access::read).samples(runs[0].id);
    int ticks = 0, drains = 0;
    for (const auto& s : samples) {
        if (s.drain)
            drains += s.total_ops() > 0;
        else
            ticks += s.interval_ms > 0;
    }
    QCOMPARE(drains, 2);  // each phase's last 300 ms of replies
    QCOMPARE(graph(window_->liveView()->chart(), QStringLiteral("total"))->dataCount(), ticks);
    window_->historyView()->openRun(runs[0].id);
    StoredRunView* view = window_->historyView()->runView();
    QTRY_VERIFY_WITH_TIMEOUT(view->run() && view->run()->report.info.id == runs[0].id, 10000);
    QCOMPARE(graph(view->chart(), QStringLiteral("total"))->dataCount(), ticks);
    window_.reset();
    QVERIFY2(g_warnings.isEmpty(), qPrintable(g_warnings.join(QLatin1Char('\n'))));
}

int run_window_guard_test(int argc, char** argv) {
    WindowGuardTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "window_guard_test.moc"
