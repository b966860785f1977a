// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>
#include <memory>
#include <string>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace perflab {

class LiveCharts;
class SearchCurve;
class StoreQuery;
class TimeChart;
struct StoredRun;

// One stored run: the live view's charts drawn from its stored ticks, probe samples and
// events, its report beside them, and its export to a report with chart images, to CSV or to
// an HdrHistogram log.
// The run is read off the GUI thread.
class StoredRunView : public QWidget {
    Q_OBJECT
  public:
    explicit StoredRunView(std::string dbPath, QWidget* parent = nullptr);
    ~StoredRunView() override;

    // Shows the run once it is read; runLoaded or loadFailed follows.
    void open(qint64 id);
    qint64 runId() const { return id_; }
    // The run read last, or nullptr while none is shown.
    const StoredRun* run() const { return run_.get(); }

    TimeChart* chart() const { return chart_; }
    // A search run's latency–throughput curve (hidden for other runs).
    SearchCurve* curve() const { return curve_; }
    int ticks() const;
    QString reportText() const;

    // What the Export buttons do once a file is chosen; false with a message on failure.
    bool exportReport(const QString& path, QString* error) const;
    bool exportCsv(const QString& path, QString* error) const;
    bool exportHlog(const QString& path, QString* error) const;
    // A note at t_s on the shown run's time axis, stored (the chart's "Add a note here…");
    // the run is read again to show it.
    bool addNote(double t_s, const QString& text, QString* error);
    // What "Add nmon capture…" does once a file is chosen: the capture's snapshots become a
    // host's samples of the shown run (import-host), which is read again to chart them.
    bool importHostCapture(const QString& path, QString* error);

  signals:
    void runLoaded(qint64 id);
    void loadFailed(qint64 id, const QString& message);
    void backRequested();

  private:
    void setupWidgets();
    void show(std::shared_ptr<const StoredRun> run);
    void showError(const QString& message);
    void chooseReportFile();
    void chooseDataFile();
    void chooseHostCapture();

    StoreQuery* query_;
    TimeChart* chart_;
    std::unique_ptr<LiveCharts> charts_;
    SearchCurve* curve_;
    QPushButton* exportCurve_;
    QLabel* title_;
    QLabel* status_;
    QPlainTextEdit* report_;
    QPushButton* exportReport_;
    QPushButton* exportData_;
    QPushButton* addCapture_;
    std::shared_ptr<const StoredRun> run_;
    qint64 id_ = 0;
};

}  // namespace perflab
