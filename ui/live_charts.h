// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "agent_charts.h"
#include "metatypes.h"
#include "probe_charts.h"

class QCPGraph;

namespace perflab {

class TimeChart;

// Maps a run's samples onto a TimeChart: throughput (successes) per op and in total with
// the planned rate and the rate sent, hit rate (cache runs), latency percentiles on a log
// scale, errors/s, responses/s per status code (HTTP runs), each agent's ops/s and late
// sends/s (a run that agents send), another tool's transactions per label (an imported
// JMeter run's Transaction Controllers: their rate and p99, as they first come), and the probes'
// panels (hosts, memcached, JVMs) as each one's first sample arrives. Phase changes and full GCs
// become vertical markers. The live view and a stored run's view share it.
class LiveCharts {
  public:
    explicit LiveCharts(TimeChart* chart);

    void begin(const RunSpec& spec);
    // False for a sample not drawn: a phase's drain (see addSample), or one of no length.
    bool addSample(const IntervalSample& sample);
    // A phase's drain: an extra sample of a phase, emitted once the next one began.
    bool isDrain(const IntervalSample& sample) const;
    void addProbeSample(const ProbeSample& sample);
    void addEvent(const RunEvent& event);
    // The slo's latency limits are dashed lines on the latency panel.
    int limitLines() const { return int(limits_.size()); }
    // One repaint for everything added since the last call.
    void refresh();

    int ticks() const { return ticks_; }
    TimeChart* chart() const { return chart_; }

  private:
    void setupRunPanels(bool cache);
    void setupLimits(const SloSpec& slo);
    QCPGraph* opGraph(const std::string& op);
    QCPGraph* codeGraph(int code);
    // A label's transactions/s and p99 lines, the two panels made with the first label.
    std::pair<QCPGraph*, QCPGraph*> transactionGraphs(const std::string& label);
    void addTransactions(double t, double secs, const std::map<std::string, OpSample>& tx);

    TimeChart* chart_;
    int throughput_ = -1, hitRate_ = -1, latency_ = -1, errors_ = -1, statusCodes_ = -1;
    QCPGraph* planned_ = nullptr;
    QCPGraph* total_ = nullptr;  // successes per second
    QCPGraph* sent_ = nullptr;
    QCPGraph* hits_ = nullptr;
    QCPGraph* p50_ = nullptr;
    QCPGraph* p90_ = nullptr;
    QCPGraph* p99_ = nullptr;
    QCPGraph* serviceP99_ = nullptr;  // open model only, made by the first tick that has it
    QCPGraph* max_ = nullptr;
    QCPGraph* errorRate_ = nullptr;
    QCPGraph* lateRate_ = nullptr;
    QCPGraph* droppedRate_ = nullptr;
    std::map<std::string, QCPGraph*> ops_;
    std::map<int, QCPGraph*> codes_;  // HTTP runs: responses/s per status code
    int transactionRate_ = -1, transactionLatency_ = -1;
    std::map<std::string, std::pair<QCPGraph*, QCPGraph*>> transactions_;  // rate, p99
    // The ticks drawn so far, where a status code or a transaction label that comes later
    // had none.
    std::vector<double> drawnTicks_;
    std::vector<std::pair<QCPGraph*, double>> limits_;  // the slo's latency limits, in ms
    AgentCharts agents_;
    ProbeCharts probes_;
    int ticks_ = 0;
    int phase_ = 0;  // of the latest sample drawn
};

}  // namespace perflab
