// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QWidget>
#include <memory>

#include "metatypes.h"

class QDoubleSpinBox;
class QLabel;
class QBoxLayout;
class QProgressBar;
class QPushButton;

namespace perflab {

class LiveCharts;
class GeneratorWatch;
class SloWatch;
class AgentTiles;
class StatTile;
class TickText;
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
    // The run's clock started (after connecting and a prefill): its ticks count from here.
    void clockStarted(qint64 wallMs);
    void addSample(const IntervalSample& sample);
    void addEvent(const RunEvent& event);
    void addProbeSample(const ProbeSample& sample);
    void finish(const RunSummary& summary);

    TimeChart* chart() const { return chart_; }
    int ticks() const;
    bool generatorLimited() const;
    const AgentTiles* agentTiles() const { return agents_; }
    // The run's error events shown above the charts (the newest few); empty when none.
    QString noticeText() const;
    // The slo's checks over the live window, "p99 ≤ 100 ms: 12.5 ms" each; empty without an slo.
    QStringList verdictChecks() const { return verdictChecks_; }
    bool verdictFailing() const { return verdictFailing_; }

    QDoubleSpinBox* rateBox() const { return rateBox_; }

  signals:
    void stopRequested();
    // The rate box or its ±10% buttons: the current open-model phase should send at `rate`.
    void rateChangeRequested(double rate);
    void rateScaleRequested(double factor);  // the rest of the phase's plan, scaled
    // "Note…" (Ctrl+M) or the chart's "Add a note here": a note at t_ms, or now when t_ms < 0.
    // `asked_ns`: when the user asked (steady clock), which a note for now stands at.
    void noteRequested(const QString& text, qint64 t_ms, qint64 asked_ns);

  private:
    void setupBanner();
    void setupTiles();
    void setupNotices();
    void setupProgress();
    void setupVerdicts();
    void setupRateControl(QBoxLayout* row);
    void updateRateControl(const IntervalSample& s);
    void askNote(qint64 t_ms);
    void updateVerdicts();
    void updateTiles(const IntervalSample& s);
    void updateProgress(const IntervalSample& s);
    void warnGenerator(const QString& why);
    void addNotice(const QString& text);

    TickText* banner_;
    QLabel* notices_;
    QStringList noticeLines_;
    TickText* title_;
    TickText* phase_;
    QProgressBar* progress_;
    QPushButton* stop_;
    QDoubleSpinBox* rateBox_;
    QPushButton* note_;
    QWidget* rateControl_;
    StatTile* rate_;
    StatTile* hitRate_;
    StatTile* p50_;
    StatTile* p99_;
    StatTile* errors_;
    StatTile* connections_;
    AgentTiles* agents_;
    TimeChart* chart_;
    std::unique_ptr<LiveCharts> charts_;
    RunSpec spec_;
    // The slo judged here too, over the same window as the run's own watch, from the ticks
    // this view is given: the run's thread is never asked.
    RunSpec plan_;
    std::unique_ptr<SloWatch> slo_;
    // Whether the generator keeps up, judged as `perflab run` judges it.
    std::unique_ptr<GeneratorWatch> generator_;
    QLabel* verdicts_;
    QLabel* answer_;
    QStringList verdictChecks_;
    bool verdictFailing_ = false;
};

}  // namespace perflab
