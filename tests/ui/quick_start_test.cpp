// SPDX-License-Identifier: MIT
// The Quick start's Redis demo: offered when redis-server is installed, it runs the Redis
// template against a redis-server of the window's own, and the stored run counts what that
// server counted; the server goes with the window. Without redis-server it is not offered.
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "database.h"
#include "history_view.h"
#include "local_redis.h"
#include "main_window.h"
#include "own_data_home.h"
#include "process.h"
#include "run_session.h"
#include "run_store.h"
#include "ui_tests.h"

using namespace perflab;

namespace {

// `INFO section` of the redis-server on `port`, as name → value ("cmdstat_get" →
// "calls=3,usec=...").
std::map<std::string, std::string> redis_info(const std::string& port, const char* section) {
    const auto out = test::run({"redis-cli", "-p", port, "INFO", section});
    std::map<std::string, std::string> info;
    std::istringstream in(out.out);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (const auto colon = line.find(':'); colon != std::string::npos && line[0] != '#')
            info[line.substr(0, colon)] = line.substr(colon + 1);
    }
    return info;
}

// The `calls` of a command in INFO commandstats; 0 when it never ran.
uint64_t calls(const std::map<std::string, std::string>& commandstats, const std::string& cmd) {
    const auto it = commandstats.find("cmdstat_" + cmd);
    if (it == commandstats.end()) return 0;
    return std::stoull(it->second.substr(it->second.find("calls=") + 6));
}

uint64_t op_count(const RunSummary& s, const char* op) {
    const auto it = s.overall.totals.ops.find(op);
    return it == s.overall.totals.ops.end() ? 0 : it->second.count;
}

}  // namespace

class QuickStartTest : public QObject {
    Q_OBJECT
  private slots:
    void redisDemoRunsAndIsStoredWithTheServersCounts();
};

void QuickStartTest::redisDemoRunsAndIsStoredWithTheServersCounts() {
    QVERIFY2(redis_server_installed(), "redis-server is not installed (apt-get install redis)");
    const test::OwnDataHome home;
    std::string port;
    {
        MainWindow window;
        // A first start, with nothing stored: the welcome offers the Redis demo too.
        QSignalSpy refreshed(window.historyView(), &HistoryView::refreshed);
        QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() >= 1, 10000);
        QVERIFY(!window.welcome()->isHidden());
        const auto* offered =
            window.welcome()->findChild<QPushButton*>(QStringLiteral("redisQuickStartButton"));
        QVERIFY(offered);
        QVERIFY(!offered->isHidden());

        QSignalSpy finished(&window, &MainWindow::runFinished);
        QString error;
        QVERIFY2(window.quickStartRedis(2, &error), qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        const auto live = finished.at(0).at(0).value<RunSummary>();
        QCOMPARE(live.status, RunStatus::completed);
        const int64_t id = window.session()->storedRunId();
        QVERIFY(id > 0);

        RunStore store(default_database_path(), Access::read);
        const nlohmann::json spec = store.spec(id);
        QCOMPARE(spec["cache"]["protocol"].get<std::string>(), std::string("redis"));
        const std::string server = spec["cache"]["servers"][0];
        port = server.substr(server.rfind(':') + 1);
        // The run is over and the server still up: its counts are the run's.
        const auto commandstats = redis_info(port, "commandstats");
        const auto stats = redis_info(port, "stats");
        const RunSummary stored = store.summary(id);
        QVERIFY(op_count(stored, "get") > 0);
        QCOMPARE(op_count(stored, "get"), calls(commandstats, "get"));
        QCOMPARE(op_count(stored, "set"), calls(commandstats, "set"));
        QCOMPARE(stored.overall.totals.hits, uint64_t(std::stoull(stats.at("keyspace_hits"))));
        QCOMPARE(stored.overall.totals.misses, uint64_t(std::stoull(stats.at("keyspace_misses"))));
        QCOMPARE(stored.overall.totals.total_errors(), uint64_t{0});
    }
    // The window is gone, and its redis-server with it.
    QVERIFY(!test::wait_for_port(uint16_t(std::stoi(port)), 200));
}

int run_quick_start_test(int argc, char** argv) {
    QuickStartTest t;
    return QTest::qExec(&t, argc, argv);
}

// Run with /usr/bin/redis-server (and /usr/local/bin's) masked in a mount namespace of its
// own (tests/ui/CMakeLists.txt): the welcome and the Run menu offer no Redis demo, and the
// memcached Quick start is still there.
class NoRedisServerTest : public QObject {
    Q_OBJECT
  private slots:
    void noRedisDemoIsOffered();
};

void NoRedisServerTest::noRedisDemoIsOffered() {
    QVERIFY2(!redis_server_installed(), "redis-server is not masked: run under ctest");
    const test::OwnDataHome home;
    MainWindow window;
    QSignalSpy refreshed(window.historyView(), &HistoryView::refreshed);
    QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() >= 1, 10000);
    QVERIFY(!window.welcome()->isHidden());
    QVERIFY(window.welcome()->findChild<QPushButton*>(QStringLiteral("quickStartButton")));
    QVERIFY(!window.welcome()->findChild<QPushButton*>(QStringLiteral("redisQuickStartButton")));
    QStringList actions;
    for (const QAction* menu : window.menuBar()->actions())
        for (const QAction* action : menu->menu()->actions())
            actions << action->text().remove(QLatin1Char('&'));
    QVERIFY2(actions.contains(QStringLiteral("Quick start")), qPrintable(actions.join('|')));
    QVERIFY2(!actions.join('|').contains(QStringLiteral("Redis")), qPrintable(actions.join('|')));
}

int run_no_redis_server_test(int argc, char** argv) {
    NoRedisServerTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "quick_start_test.moc"
