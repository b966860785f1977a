// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <optional>
#include <vector>

#include "compact_ticks.h"

class QCPAbstractItem;
class QCPAbstractLegendItem;
class QCPLayoutElement;
class QCPLayoutGrid;
class QCPLegend;
class QCPAxisRect;
class QCPItemStraightLine;
class QCPGraph;
class QCPLayerable;
class QCPMarginGroup;
class QCustomPlot;
class QMenu;
class QMouseEvent;
class QScrollArea;
class QShowEvent;

namespace perflab {

// Panels stacked on one shared time axis (seconds since the run started), in one
// QCustomPlot so they zoom and pan together. Series keep a bounded number of points: past
// the bound they are thinned by half (keeping each stretch's lowest and highest point), so an
// hour-long run costs as much memory as a minute. A panel added with a kind ("Latency",
// "Host CPU") can be hidden by the user; hidden panels take no space. Each panel has its
// legend in a row above its plot area, where it covers no data; a click on a legend entry
// hides or shows that series. Value axes have compact labels (60k, 250µs), as many as the
// panel's height holds; below kMinPanelHeight a panel does not shrink: the stack scrolls.
// A replot draws the series of the panels in view only (an hour's points on a dozen panels
// took the GUI thread 30-60 ms a tick); scrolling draws the ones that come into view.
class TimeChart : public QWidget {
    Q_OBJECT
  public:
    // About a point per pixel column of a wide panel: a replot costs ~1 µs a point, and an
    // hour at 2000 points a series took a live window 20-25 ms a tick.
    static constexpr int kMaxPoints = 1000;
    static constexpr int kMinPanelHeight = 110;  // legend row and plot area

    explicit TimeChart(QWidget* parent = nullptr);
    ~TimeChart() override;

    enum class Scale { linear, log };
    int addPanel(const QString& title, Scale scale = Scale::linear, const QString& kind = {},
                 AxisUnit unit = AxisUnit::count);
    // Puts "<kind>: log scale" in the context menu for this panel.
    void offerLogScale(int panel);
    void setLogScale(int panel, bool log);
    bool logScale(int panel) const { return panels_.at(size_t(panel)).scale == Scale::log; }
    // Names what the panel shows (a probed host, a server) at the start of its legend row.
    void setCaption(int panel, const QString& text);
    // Panels are laid out by this key, then in the order they came: panels added as their
    // data arrives (a probe's first sample) keep one order from run to run. Empty by default,
    // so the run's own panels come first.
    void setPanelOrder(int panel, const QString& key);
    // Every panel's index, in the order they are laid out.
    std::vector<int> panelsInOrder() const;
    int panelCount() const { return int(panels_.size()); }
    int visiblePanelCount() const;
    // Whether the user shows the panel's kind.
    bool panelShown(int panel) const { return !hidden_.contains(panels_.at(size_t(panel)).kind); }
    // What the panel shows in words: its kind, axis and caption ("Host CPU (CPU %): db1").
    QString panelTitle(int panel) const;
    // Lays out `panel` alone, with its own time axis and the markers' labels, as a report draws
    // one panel a block; nullopt lays out the panels the user shows again.
    void soloPanel(std::optional<int> panel);
    QCPGraph* addSeries(int panel, const QString& name, const QColor& color,
                        Qt::PenStyle style = Qt::SolidLine);
    // A series drawn as if with a 2-px pen, for the one line a panel is read by.
    QCPGraph* addBoldSeries(int panel, const QString& name, const QColor& color);
    // A series filled down to the axis with an opaque tint of its colour. Stacked areas are
    // drawn by adding the tallest (the sum of all) first: each later one covers its share.
    QCPGraph* addArea(int panel, const QString& name, const QColor& color);
    void append(QCPGraph* graph, double t_s, double value);
    // A dashed line at t_s across every panel, labelled on the top one, the label on `line`
    // (counted in text lines from the panel's top): labels of different kinds that come at the
    // same time (a phase's start and a full GC) are staggered, not drawn over each other.
    void addMarker(double t_s, const QString& label, const QColor& color, int line = 0);
    int markerCount() const { return markers_; }
    // The live view shows [0, max(planned, latest)] until the user zooms or pans.
    void setPlannedSeconds(double seconds) { planned_s_ = seconds; }
    // Panels of these kinds that will come (a probe's, with its first sample) keep their room
    // from now: the stack takes its full height at once, and the first tick, whose replot of
    // every panel is the longest, is not also the one that resizes the plot and its paint
    // buffers. Each addPanel of a kind takes one room of it.
    void reservePanels(const QStringList& kinds);
    // Gives up the room of panels that did not come (a probe that failed).
    void releaseReservedPanels();
    void clear();
    // Rescales now and schedules one repaint for the next turn of the event loop: calls within
    // one turn (a tick's sample, its probes and events) cost one redraw, and none while hidden.
    void refresh();

    // The user's choice of panel kinds, offered in the chart's context menu and kept in
    // QSettings under `settingsKey`, so the live view and a stored run's view share it.
    void rememberPanelChoices(const QString& settingsKey);
    void setKindHidden(const QString& kind, bool hidden);
    bool kindHidden(const QString& kind) const { return hidden_.contains(kind); }
    // The context menu: a checkable entry per panel kind, fit to the run, export, and with
    // `at_s` (the time right-clicked) "Add a note here…", which emits noteRequested.
    QMenu* createMenu(QWidget* parent, std::optional<double> at_s = std::nullopt);
    // The crosshair: a line at t_s across every panel, and what the tooltip then says: each
    // visible panel's series at that tick, with the panel's unit ("p99: 12.3 ms").
    void showCrosshair(double t_s);
    void hideCrosshair();
    bool crosshairVisible() const;
    QString crosshairText(double t_s) const;
    // Whether the context menu offers notes (a view that can store them says so).
    void setNotesOffered(bool offered) { notesOffered_ = offered; }
    // What an exported image is headed with: the run's name, the runs compared.
    void setTitle(const QString& title) { title_ = title; }
    const QString& title() const { return title_; }

  signals:
    void noteRequested(double t_s);

  public:
    QCustomPlot* plot() const { return plot_; }
    QCPLegend* legend(int panel) const { return panels_.at(size_t(panel)).legend; }
    QCPAxisRect* axisRect(int panel) const { return panels_.at(size_t(panel)).rect; }

  protected:
    void showEvent(QShowEvent* event) override;

  private:
    struct Panel {
        QCPAxisRect* rect;
        QCPLayoutGrid* header;  // the legend's row
        QCPLegend* legend;
        Scale scale;
        QString kind;
        AxisUnit unit;
        std::vector<QCPGraph*> stack{};  // its areas, the tallest (the sum of all) first
        QString order = {};              // setPanelOrder's
        bool logOffered = false;
        QCPItemStraightLine* cursor = nullptr;  // the crosshair's line, made on first use
        QString caption = {};                   // setCaption's
    };
    void setupPlot();
    void linkTimeAxes(QCPAxisRect* rect);
    void layoutPanels();
    QCPLegend* addLegendRow(QCPLayoutGrid* header);
    void toggleSeries(QCPAbstractLegendItem* item);
    void fitTicks();
    static void placeMarkerItem(QCPAbstractItem* item, QCPAxisRect* top);
    QCPAxisRect* topVisiblePanel() const;
    bool laidOut(size_t panel) const;  // in the layout: shown by the user, or the solo one
    void setupSeries(QCPLegend* legend, QCPGraph* graph, const QString& name, const QColor& color,
                     Qt::PenStyle style);
    void rescalePanels();
    void scheduleRedraw();
    void redraw();
    void showTooltip(QMouseEvent* event);
    void skipPanelsOutOfView();
    void declutterMarkerLabels();
    void restoreSkippedPanels();
    static void thin(QCPGraph* graph);

    QScrollArea* scroll_;
    QCustomPlot* plot_;
    bool notesOffered_ = false;
    QString title_;
    QCPMarginGroup* margins_;
    std::vector<Panel> panels_;
    double planned_s_ = 0;
    double latest_s_ = 0;
    bool follow_ = true;
    bool stale_ = false;                  // something changed since the last redraw
    bool replotting_ = false;             // between a replot's start and its end
    std::vector<QCPLayerable*> skipped_;  // hidden for one replot: their panel is not in view
    int plotHeight_ = 0;                  // the stack's minimum height, applied at the next redraw
    QStringList reserved_;                // kinds of panels to come
    QCPLayoutElement* spacer_ = nullptr;  // their room, under the panels
    int markers_ = 0;
    QSet<QString> hidden_;
    std::optional<int> solo_;
    QString settingsKey_;
};

}  // namespace perflab
