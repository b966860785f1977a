// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>
#include <QStringList>
#include <memory>
#include <string>
#include <vector>

#include "metatypes.h"

class QAction;
class QProgressBar;
class QTabWidget;
class QWidget;

namespace perflab {

class AbDialog;
class CompareView;
class HistoryView;
class HostsView;
class LiveView;
class LocalRedis;
class RunSession;
class SpecForm;

// PerfLab's window: set up a run, watch it live, and the views over the run store (history,
// compare) and the saved hosts. Owns the one RunSession; remembers its layout and the last
// spec in QSettings.
class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    enum class View { setup, live, history, compare, hosts };
    void showView(View view);
    // `notes` become the run's first events (the probes the user chose to start without).
    bool startRun(const RunSpec& spec, QString* error, const std::vector<std::string>& notes = {});
    // Starts a memcached of our own and a short demo run against it.
    bool quickStart(int seconds, QString* error);
    // Starts a redis-server of our own (once; it stays up until the window goes, so its
    // figures can be read after the run) and the Redis template's run against it, `seconds`
    // long.
    bool quickStartRedis(int seconds, QString* error);

    SpecForm* specForm() const { return form_; }
    LiveView* liveView() const { return live_; }
    HistoryView* historyView() const { return history_; }
    CompareView* compareView() const { return compare_; }
    HostsView* hostsView() const { return hosts_; }
    QWidget* welcome() const { return welcome_; }
    RunSession* session() const { return session_; }
    QAction* startAction() const { return startAction_; }
    QAction* stopAction() const { return stopAction_; }
    // File → Import results…, or a file dropped on the window: another tool's results (JTL,
    // vegeta, k6, memtier, .hlog) stored as a run, or a PerfLab bundle's runs, read off the
    // GUI thread with a progress bar; importFinished (the first run stored) or importFailed
    // follows.
    void importFile(const QString& path);
    // Run → Live metrics for Prometheus…, once answered: HOST:PORT for the runs from now on,
    // remembered in the settings; empty turns it off.
    void setMetricsAddress(const QString& address);

  signals:
    void runFinished(const perflab::RunSummary& summary);
    void importFinished(qint64 runId);
    void importFailed(const QString& message);

  protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void setupViews();
    QWidget* setupWelcome();
    void setupMenus();
    void setupSession();
    void setupStoreViews();
    void restoreSettings();
    void saveSettings() const;
    void openSpec();
    // Ctrl+S: to the file the spec came from, else as Save as.
    void saveSpec();
    void saveSpecAs();
    void writeSpec(const QString& path);
    void exportChart();
    void importResults();
    void importNext();
    void openAbDialog();
    void startRedisDemo();  // the Redis quick start, its error reported
    void askMetricsAddress();
    // Start and Stop (menu and button) as the run's state and the form's validity allow.
    void updateRunActions();
    void onFinished(const RunSummary& summary);
    void onProbeRefused(const RunSpec& spec, int probe, const QString& why);
    void report(const QString& title, const QString& error);

    std::string dbPath_;
    QTabWidget* tabs_;
    SpecForm* form_;
    LiveView* live_;
    HistoryView* history_;
    CompareView* compare_;
    HostsView* hosts_;
    QWidget* welcome_ = nullptr;
    RunSession* session_;
    bool closeAfterRun_ = false;
    QProgressBar* importProgress_ = nullptr;
    int importing_ = 0;        // imports under way
    QStringList importQueue_;  // files dropped, imported one at a time
    AbDialog* ab_ = nullptr;
    QAction* startAction_ = nullptr;
    QAction* stopAction_ = nullptr;
    QAction* quickStartAction_ = nullptr;
    QAction* redisQuickStartAction_ = nullptr;  // only when redis-server is installed
    std::unique_ptr<LocalRedis> redis_;
    std::vector<std::string> startNotes_;  // of the run being started
};

}  // namespace perflab
