// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <map>
#include <string>
#include <vector>

#include "model/sample.h"
#include "model/spec.h"

class QCPGraph;

namespace perflab {

class TimeChart;

// A run that agents send: a line per agent on two panels, its ops/s and its late sends/s,
// so one agent falling behind the others shows where and when. A lost agent's line ends at
// its loss; a tick it sent after the grace period is drawn where it belongs.
class AgentCharts {
  public:
    explicit AgentCharts(TimeChart* chart) : chart_(chart) {}

    void begin(const RunSpec& spec);
    void addSample(double t_s, double seconds, const std::vector<AgentTick>& agents);

    int agents() const { return int(lines_.size()); }
    static QString kind();

  private:
    struct Lines {
        QCPGraph* ops;
        QCPGraph* late;
    };
    Lines& lines(const std::string& host);

    TimeChart* chart_;
    int ops_ = -1, late_ = -1;
    std::map<std::string, Lines> lines_;
};

}  // namespace perflab
