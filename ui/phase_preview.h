// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>
#include <nlohmann/json_fwd.hpp>

class QCustomPlot;

namespace perflab {

// A small chart of the planned schedule: the open-model rate over time (steps and ramps) and
// the connections of closed-model phases, drawn from the phase rows as typed, valid or not.
class PhasePreview : public QWidget {
    Q_OBJECT
  public:
    explicit PhasePreview(QWidget* parent = nullptr);
    void show(const nlohmann::json& phases);
    QCustomPlot* plot() const { return plot_; }

  private:
    void setupPlot();
    QCustomPlot* plot_;
};

}  // namespace perflab
