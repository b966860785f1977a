// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QString>
#include <QWidget>
#include <vector>

class QCPAxisRect;
class QCPGraph;
class QCPMarginGroup;
class QCustomPlot;
class QMouseEvent;

namespace perflab {

// Panels stacked on one shared time axis (seconds since the run started), in one
// QCustomPlot so they zoom and pan together. Series keep a bounded number of points: past
// the bound they are thinned by half, so an hour-long run costs as much memory as a minute.
class TimeChart : public QWidget {
    Q_OBJECT
  public:
    static constexpr int kMaxPoints = 2000;

    explicit TimeChart(QWidget* parent = nullptr);
    ~TimeChart() override;

    enum class Scale { linear, log };
    int addPanel(const QString& title, Scale scale = Scale::linear);
    int panelCount() const { return int(panels_.size()); }
    QCPGraph* addSeries(int panel, const QString& name, const QColor& color,
                        Qt::PenStyle style = Qt::SolidLine);
    // Fills the area between `graph` and `below` (nullptr: down to the axis): stacked areas.
    void fillBelow(QCPGraph* graph, QCPGraph* below);
    void append(QCPGraph* graph, double t_s, double value);
    void addMarker(double t_s, const QString& label, const QColor& color);
    int markerCount() const { return markers_; }
    // The live view shows [0, max(planned, latest)] until the user zooms or pans.
    void setPlannedSeconds(double seconds) { planned_s_ = seconds; }
    void clear();
    // Rescales and schedules one repaint; call once per tick, not per point.
    void refresh();

    QCustomPlot* plot() const { return plot_; }

  private:
    struct Panel {
        QCPAxisRect* rect;
        Scale scale;
    };
    void setupPlot();
    void linkTimeAxes(QCPAxisRect* rect);
    void rescalePanels();
    void showTooltip(QMouseEvent* event);
    static void thin(QCPGraph* graph);

    QCustomPlot* plot_;
    QCPMarginGroup* margins_;
    std::vector<Panel> panels_;
    double planned_s_ = 0;
    double latest_s_ = 0;
    bool follow_ = true;
    int markers_ = 0;
};

}  // namespace perflab
