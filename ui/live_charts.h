// SPDX-License-Identifier: MIT
#pragma once

#include <QHash>
#include <QString>
#include <map>
#include <string>

#include "metatypes.h"

class QCPGraph;

namespace perflab {

class TimeChart;

// Maps a run's samples onto a TimeChart: throughput per op with the planned rate, hit rate
// (cache runs), latency percentiles on a log scale, errors/s, and CPU/load/memory/network
// panels for each probed host as its first sample arrives. Phase changes and full GCs
// become vertical markers. The live view and a stored run's view share it.
class LiveCharts {
  public:
    explicit LiveCharts(TimeChart* chart);

    void begin(const RunSpec& spec);
    void addSample(const IntervalSample& sample);
    void addProbeSample(const ProbeSample& sample);
    void addEvent(const RunEvent& event);
    // One repaint for everything added since the last call.
    void refresh();

    int ticks() const { return ticks_; }
    TimeChart* chart() const { return chart_; }

  private:
    struct HostGraphs {
        QCPGraph* user = nullptr;
        QCPGraph* system = nullptr;
        QCPGraph* iowait = nullptr;
        QCPGraph* load = nullptr;
        QCPGraph* mem = nullptr;
        QCPGraph* rx = nullptr;
        QCPGraph* tx = nullptr;
    };
    void setupRunPanels(bool cache);
    QCPGraph* opGraph(const std::string& op);
    HostGraphs& hostGraphs(const QString& source);
    void addHostSample(const ProbeSample& sample);

    TimeChart* chart_;
    int throughput_ = -1, hitRate_ = -1, latency_ = -1, errors_ = -1;
    QCPGraph* planned_ = nullptr;
    QCPGraph* hits_ = nullptr;
    QCPGraph* p50_ = nullptr;
    QCPGraph* p90_ = nullptr;
    QCPGraph* p99_ = nullptr;
    QCPGraph* max_ = nullptr;
    QCPGraph* errorRate_ = nullptr;
    std::map<std::string, QCPGraph*> ops_;
    QHash<QString, HostGraphs> hosts_;
    int ticks_ = 0;
};

}  // namespace perflab
