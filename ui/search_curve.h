// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QCustomPlot;

namespace perflab {

struct SearchResult;
struct SloSpec;

// The latency–throughput curve of a max-rate search: p50, p99 and p99.9 (log y) against the
// throughput each step achieved, one point per step, the slo's latency limits as dashed
// lines and the knee (the step at max_rate) marked; confirmation holds are marks of their own
// at their p99, passed or failed.
class SearchCurve : public QWidget {
    Q_OBJECT
  public:
    explicit SearchCurve(QWidget* parent = nullptr);

    void show(const SearchResult& result, const SloSpec* slo);
    // Points per curve (one per step with latency figures, holds apart).
    int points() const;
    int limitLines() const { return limits_; }
    bool kneeMarked() const { return knee_; }
    int holdsMarked() const { return holds_; }  // confirmation holds with a p99

    QCustomPlot* plot() const { return plot_; }

  private:
    void setupAxes();

    QCustomPlot* plot_;
    int limits_ = 0;
    bool knee_ = false;
    int holds_ = 0;
};

}  // namespace perflab
