// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

#include "metatypes.h"
#include "model/observer.h"

namespace perflab {

// Turns the controller's (and the probes') callbacks into signals carrying copies of the
// values. Called on foreign threads; receivers living on the GUI thread get them queued, so
// the GUI never waits on the engine and the engine never waits on the GUI.
class RunBridge : public QObject, public RunObserver {
    Q_OBJECT
  public:
    explicit RunBridge(QObject* parent = nullptr);

    void on_start(const RunSpec& spec) override;
    void on_clock(int64_t wall_ms) override;
    void on_sample(const IntervalSample& sample) override;
    void on_event(const RunEvent& event) override;
    void on_probe_sample(const ProbeSample& sample) override;
    void on_phase_end(const PhaseTotals& phase) override;
    void on_end(const RunSummary& summary) override;

  signals:
    void started(const perflab::RunSpec& spec);
    void clockStarted(qint64 wallMs);
    void sampled(const perflab::IntervalSample& sample);
    void event(const perflab::RunEvent& event);
    void probeSampled(const perflab::ProbeSample& sample);
    void phaseEnded(const perflab::PhaseTotals& phase);
    void ended(const perflab::RunSummary& summary);
};

}  // namespace perflab
