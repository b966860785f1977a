// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QWidget>
#include <memory>

#include "metatypes.h"

class QLabel;
class QProgressBar;
class QPushButton;

namespace perflab {

class LiveCharts;
class StatTile;
class TimeChart;

// The run as it happens: a banner when the load generator is the limit, tiles with the
// current figures, progress with the phase, a Stop button and the stacked charts. Fed once
// per tick from queued signals; never waits on the run.
class LiveView : public QWidget {
    Q_OBJECT
  public:
    explicit LiveView(QWidget* parent = nullptr);
    ~LiveView() override;

    void begin(const RunSpec& spec);
    void addSample(const IntervalSample& sample);
    void addEvent(const RunEvent& event);
    void addProbeSample(const ProbeSample& sample);
    void finish(const RunSummary& summary);

    TimeChart* chart() const { return chart_; }
    int ticks() const;
    bool generatorLimited() const;
    // The run's error events shown above the charts (the newest few); empty when none.
    QString noticeText() const;

  signals:
    void stopRequested();

  private:
    void setupBanner();
    void setupTiles();
    void setupNotices();
    void setupProgress();
    void updateTiles(const IntervalSample& s);
    void updateProgress(const IntervalSample& s);
    void warnGenerator(const QString& why);
    void addNotice(const QString& text);

    QLabel* banner_;
    QLabel* notices_;
    QStringList noticeLines_;
    QLabel* title_;
    QLabel* phase_;
    QProgressBar* progress_;
    QPushButton* stop_;
    StatTile* rate_;
    StatTile* hitRate_;
    StatTile* p50_;
    StatTile* p99_;
    StatTile* errors_;
    StatTile* connections_;
    TimeChart* chart_;
    std::unique_ptr<LiveCharts> charts_;
    RunSpec spec_;
};

}  // namespace perflab
