// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>
#include <cstdint>
#include <vector>

class QCPGraph;
class QCustomPlot;

namespace perflab {

class Histogram;
struct PercentileBand;

// The full latency distribution of runs, one curve each: x is 1/(1-p) on a log axis
// labelled in nines (0%, 90%, 99% … 99.999%), y the latency in ms on a log axis. A curve
// stops at the nines its run's count can tell apart: 1,000 ops say nothing of p99.99.
class PercentileChart : public QWidget {
    Q_OBJECT
  public:
    static constexpr double kMaxNines = 1e5;  // x of 99.999%
    static constexpr int kPointsPerDecade = 20;

    explicit PercentileChart(QWidget* parent = nullptr);
    ~PercentileChart() override;

    QCPGraph* addRun(const QString& name, const QColor& color, const Histogram& latency);
    // A run's 95% band (compare_stats.h): a tint of `color` between its bounds, no legend row.
    void addBand(const QColor& color, const PercentileBand& band);
    int bands() const { return bands_; }
    // The x of the points a curve of `count` values has: kPointsPerDecade per decade, up to
    // the nines `count` can tell apart.
    static std::vector<double> grid(uint64_t count);
    void clear();

    // x of percentile p (0..100) and back.
    // Written so that x = 10, 100... give exactly 90, 99...
    static double nines_x(double p) { return 100.0 / (100.0 - p); }
    static double percentile_at(double x) { return 100.0 - 100.0 / x; }

    QCustomPlot* plot() const { return plot_; }
    // What the tooltip says at x: the percentile, then each run's latency there.
    QString tooltipAt(double x) const;
    // The labelled lines at 90%, 99%, 99.9% and 99.99%.
    int percentileLines() const { return 4; }

  private:
    void setupAxes();
    void setupLegend();
    void setupPercentileLines();
    void rescale();

    QCustomPlot* plot_;
    int bands_ = 0;
};

}  // namespace perflab
