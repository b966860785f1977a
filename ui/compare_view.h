// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>
#include <QWidget>
#include <optional>
#include <string>
#include <vector>

#include "run_compare.h"

class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;

namespace perflab {

class PercentileChart;
class StoreQuery;
class TimeChart;
struct CompareData;

// Two or more stored runs side by side: key figures with their change against the first run
// (better green, worse red), throughput and latency over time overlaid from each run's
// start, each run's full latency distribution, and the spec and machine fields that differ,
// with a warning when the machines differ. The store is read off the GUI thread.
class CompareView : public QWidget {
    Q_OBJECT
  public:
    enum class Chart { overTime, percentiles };

    explicit CompareView(const std::string& dbPath, QWidget* parent = nullptr);
    ~CompareView() override;

    // Writes a report by the suffix: PDF (.pdf, the charts as vector graphics, a panel a
    // block); HTML (.html), one file with the charts inline; or Markdown (.md), with the two
    // charts as PNGs next to it (REPORT-over-time.png, REPORT-percentiles.png).
    bool exportReport(const QString& path, QString* error);
    // PNG, PDF or SVG, by the suffix.
    bool exportChart(Chart chart, const QString& path, int width, int height, QString* error);

    const std::optional<Comparison>& comparison() const { return comparison_; }
    QString message() const;
    bool machinesWarningShown() const;
    QTableWidget* figuresTable() const { return figures_; }
    QTableWidget* differencesTable() const { return differences_; }
    TimeChart* overTimeChart() const { return overTime_; }
    PercentileChart* percentileChart() const { return percentiles_; }

  public slots:
    // Shows the runs, the first being the base of every delta. Needs two or more.
    void compare(QList<qint64> ids);
    // Two series (an A/B experiment's): B's runs against A's, each side judged as a whole.
    void compareSeries(QList<qint64> a, QList<qint64> b);
    void exportReportDialog();
    void exportChartDialog(Chart chart);

  signals:
    void compared();
    void failed(const QString& message);
    // The user asked to see one run's own charts (double-click on its column).
    void openRunRequested(qint64 id);

  private:
    void setupUi();
    QWidget* setupToolbar();
    void showComparison(const CompareData& data);
    void showFailure(const QString& message);
    void clearResults();
    // Reads the sides' comparison off the GUI thread, saying `message` meanwhile.
    void load(std::vector<std::vector<int64_t>> sides, const QString& message);
    void fillFigures(const Comparison& c);
    void fillDifferences(const Comparison& c);
    void fillOverTime(const CompareData& data);
    void fillPercentiles(const CompareData& data);
    QString chartTitle(Chart chart) const;  // what an export of it is headed with
    QCustomPlot* chartPlot(Chart chart) const;

    StoreQuery* query_;
    QLabel* message_;
    QLabel* banner_;
    QPushButton* reportButton_;
    QPushButton* chartButton_;
    QTableWidget* figures_;
    QTableWidget* differences_;
    TimeChart* overTime_;
    PercentileChart* percentiles_;
    std::optional<Comparison> comparison_;
    QString runLabels_;  // the runs compared, for the charts' titles
    std::vector<int64_t> ids_;
};

}  // namespace perflab
