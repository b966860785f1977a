// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

#include "metatypes.h"

class QTabWidget;
class QWidget;

namespace perflab {

class LiveView;
class RunSession;
class SpecForm;

// PerfLab's window: set up a run, watch it live, and the views over the run store. Owns the
// one RunSession; remembers its layout and the last spec in QSettings.
class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    enum class View { setup, live };
    void showView(View view);
    bool startRun(const RunSpec& spec, QString* error);
    // Starts a memcached of our own and a short demo run against it.
    bool quickStart(int seconds, QString* error);

    SpecForm* specForm() const { return form_; }
    LiveView* liveView() const { return live_; }
    RunSession* session() const { return session_; }

  signals:
    void runFinished(const perflab::RunSummary& summary);

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void setupViews();
    QWidget* setupWelcome();
    void setupMenus();
    void setupSession();
    void restoreSettings();
    void saveSettings() const;
    void openSpec();
    void saveSpec();
    void exportChart();
    void onFinished(const RunSummary& summary);
    void report(const QString& title, const QString& error);

    QTabWidget* tabs_;
    SpecForm* form_;
    LiveView* live_;
    QWidget* welcome_ = nullptr;
    RunSession* session_;
    bool closeAfterRun_ = false;
};

}  // namespace perflab
