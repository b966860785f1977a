// SPDX-License-Identifier: MIT
// The window from the keyboard, against a real memcached and the real store: Run → Start
// (Ctrl+R) and Stop (Ctrl+.) enabled as the run's state allows, Ctrl+S saving the spec to its
// file, Enter opening the History's current run, and the History selecting the run that just
// ended and the run just imported.
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <nlohmann/json.hpp>

#include "database.h"
#include "history_view.h"
#include "live_view.h"
#include "main_window.h"
#include "memcached_server.h"
#include "model/spec.h"
#include "own_data_home.h"
#include "process.h"
#include "run_list_model.h"
#include "run_session.h"
#include "run_store.h"
#include "spec_form.h"
#include "stored_run_view.h"
#include "ui_tests.h"
#include "vegeta_results.h"

using namespace perflab;

namespace {

constexpr int kRunMs = 30000;

// A closed-model cache run long enough that only Stop ends it within the test.
nlohmann::json long_spec(const std::string& server) {
    return {{"name", "keys test"},
            {"kind", "cache"},
            {"tick_ms", 200},
            {"phases", {{{"duration_s", 600}, {"concurrency", 2}}}},
            {"cache",
             {{"servers", {server}},
              {"keys", {{"count", 1000}}},
              {"value_size", {{"min", 64}, {"max", 256}}}}}};
}

}  // namespace

class WindowKeysTest : public QObject {
    Q_OBJECT
  private slots:
    void startAndStopFollowTheRun();
    void ctrlSSavesTheSpecToItsFile();
    void enterOpensTheCurrentRun();
    void importedRunIsSelected();
    void closingAsTheRunEndsCloses();

  private:
    // A window shown and active, so that its shortcuts reach it.
    static void showActive(MainWindow& window) {
        window.resize(1024, 700);
        window.show();
        QApplication::setActiveWindow(&window);
        QVERIFY(QTest::qWaitForWindowActive(&window));
    }
};

void WindowKeysTest::startAndStopFollowTheRun() {
    const test::OwnDataHome home;
    test::MemcachedServer server;
    MainWindow window;
    window.specForm()->setJson(long_spec(server.endpoint()));
    QVERIFY2(window.specForm()->isValid(), qPrintable(window.specForm()->errorText()));
    showActive(window);
    if (QTest::currentTestFailed()) return;
    QAction* start = window.startAction();
    QAction* stop = window.stopAction();
    QCOMPARE(start->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
    QCOMPARE(stop->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Period));
    QVERIFY(start->isEnabled());
    QVERIFY(!stop->isEnabled());

    QSignalSpy finished(&window, &MainWindow::runFinished);
    QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier);
    QVERIFY(window.session()->running());
    QVERIFY(!start->isEnabled());
    QVERIFY(!window.specForm()->startButton()->isEnabled());
    QVERIFY(stop->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(window.liveView()->ticks() >= 2, kRunMs);

    QTest::keyClick(&window, Qt::Key_Period, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunMs);
    QCOMPARE(finished.at(0).at(0).value<RunSummary>().status, RunStatus::stopped);
    QVERIFY(start->isEnabled());
    QVERIFY(!stop->isEnabled());

    // The History has the run that just ended selected.
    const qint64 id = window.session()->storedRunId();
    QVERIFY(id > 0);
    {
        RunStore store(default_database_path(), Access::read);
        QCOMPARE(store.list().front().id, id);
    }
    QTRY_COMPARE_WITH_TIMEOUT(window.historyView()->selectedRunIds(), QList<qint64>{id}, kRunMs);
}

void WindowKeysTest::ctrlSSavesTheSpecToItsFile() {
    const test::OwnDataHome home;
    home.dir().write("spec.json", long_spec("127.0.0.1:11211").dump());
    const QString path = QString::fromStdString(home.dir().file("spec.json"));
    MainWindow window;
    QString error;
    QVERIFY2(window.specForm()->loadFile(path, &error), qPrintable(error));
    QCOMPARE(window.specForm()->filePath(), path);
    showActive(window);
    if (QTest::currentTestFailed()) return;
    qobject_cast<QLineEdit*>(window.specForm()->field("name"))->setText(QStringLiteral("renamed"));
    QTest::keyClick(&window, Qt::Key_S, Qt::ControlModifier);
    const SpecResult saved = load_spec_file(path.toStdString());
    QVERIFY2(saved, saved.error_text().c_str());
    QCOMPARE(saved.spec->name, std::string("renamed"));
    // A template is no file of the user's: Save asks for a name then (Save as…).
    QVERIFY2(window.specForm()->loadTemplate(SpecForm::templates().front(), &error),
             qPrintable(error));
    QVERIFY(window.specForm()->filePath().isEmpty());
}

void WindowKeysTest::enterOpensTheCurrentRun() {
    const test::OwnDataHome home;
    test::MemcachedServer server;
    nlohmann::json spec = long_spec(server.endpoint());
    spec["phases"][0]["duration_s"] = 0.5;
    home.dir().write("spec.json", spec.dump());
    const std::string db = default_database_path();
    for (int i = 0; i < 2; ++i) {
        const test::Output out =
            test::run({PERFLAB_BINARY, "run", home.dir().file("spec.json"), "--db", db, "-q"}, 60);
        QVERIFY2(out.code == 0, out.err.c_str());
    }
    MainWindow window;
    window.showView(MainWindow::View::history);
    showActive(window);
    if (QTest::currentTestFailed()) return;
    HistoryView* history = window.historyView();
    QTRY_COMPARE_WITH_TIMEOUT(history->model()->rowCount(), 2, kRunMs);
    QTableView* table = history->table();
    table->setFocus();
    const QModelIndex second = table->model()->index(1, 0);
    table->setCurrentIndex(second);
    const QList<qint64> ids = history->selectedRunIds();
    QCOMPARE(ids.size(), 1);
    QSignalSpy loaded(history->runView(), &StoredRunView::runLoaded);
    QTest::keyClick(table, Qt::Key_Return);
    QVERIFY(history->showingRun());
    QCOMPARE(history->runView()->runId(), ids.front());
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kRunMs);
}

// File → Import results…: the run it became is selected in the History, which is shown.
void WindowKeysTest::importedRunIsSelected() {
    const test::OwnDataHome home;
    home.dir().write("results.json", test::vegeta_results(20));
    MainWindow window;
    window.showView(MainWindow::View::setup);
    QSignalSpy done(&window, &MainWindow::importFinished);
    window.importFile(QString::fromStdString(home.dir().file("results.json")));
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kRunMs);
    const qint64 id = done.at(0).at(0).toLongLong();
    QTRY_COMPARE_WITH_TIMEOUT(window.historyView()->selectedRunIds(), QList<qint64>{id}, kRunMs);
    QCOMPARE(qobject_cast<QTabWidget*>(window.centralWidget())->currentWidget(),
             window.historyView());
    QVERIFY(!window.historyView()->showingRun());
}

// Ctrl+Q during a run asks first; a run that ends while the question is open leaves nothing
// to wait for: Yes closes the window then, not at a second Ctrl+Q.
void WindowKeysTest::closingAsTheRunEndsCloses() {
    const test::OwnDataHome home;
    test::MemcachedServer server;
    MainWindow window;
    auto spec = long_spec(server.endpoint());
    spec["phases"] = {{{"duration_s", 1}, {"concurrency", 2}}};
    window.specForm()->setJson(spec);
    showActive(window);
    if (QTest::currentTestFailed()) return;
    QSignalSpy finished(&window, &MainWindow::runFinished);
    window.startAction()->trigger();
    QVERIFY(window.session()->running());
    bool answered = false;
    QTimer answer;
    answer.setInterval(20);
    connect(&answer, &QTimer::timeout, &window, [&] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box || answered || finished.count() == 0) return;
        answered = true;
        box->button(QMessageBox::Yes)->click();
    });
    answer.start();
    QVERIFY(window.close());
    QVERIFY(answered);
    QVERIFY(!window.isVisible());
    QSettings().remove(QStringLiteral("spec/last"));  // the next tests' windows start afresh
}

int run_window_keys_test(int argc, char** argv) {
    WindowKeysTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "window_keys_test.moc"
