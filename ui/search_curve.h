// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QCustomPlot;

namespace perflab {

struct SearchResult;
struct SloSpec;

// The latency–throughput curve of a max-rate search: p50, p99 and p99.9 (log y) against the
// throughput each step achieved, one point per step, the slo's latency limits as dashed
// lines and the knee (the step at max_rate) marked.
class SearchCurve : public QWidget {
    Q_OBJECT
  public:
    explicit SearchCurve(QWidget* parent = nullptr);

    void show(const SearchResult& result, const SloSpec* slo);
    // Points per curve (one per step with latency figures).
    int points() const;
    int limitLines() const { return limits_; }
    bool kneeMarked() const { return knee_; }

    QCustomPlot* plot() const { return plot_; }

  private:
    void setupAxes();

    QCustomPlot* plot_;
    int limits_ = 0;
    bool knee_ = false;
};

}  // namespace perflab
