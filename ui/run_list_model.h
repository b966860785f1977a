// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "run_store.h"

namespace perflab {

// The history's table: one row per stored run with its key figures (the ones `runs` prints:
// throughput is successful operations per second). Qt::DisplayRole gives the text,
// Qt::UserRole the raw value to sort by (numbers sort as numbers).
class RunListModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Id,
        Name,
        Kind,
        Status,
        Verdict,  // PASS / FAIL against its slo, or a search's max rate
        Started,
        Duration,
        Throughput,
        P99,
        Success,
        HitRate,  // cache runs only
        Errors,
        Tags,
        ColumnCount
    };

    explicit RunListModel(QObject* parent = nullptr);

    void setRuns(std::vector<RunInfo> runs);
    const std::vector<RunInfo>& runs() const { return runs_; }
    const RunInfo& run(int row) const { return runs_.at(size_t(row)); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    QVariant text(const RunInfo& run, int column) const;
    QVariant value(const RunInfo& run, int column) const;

    std::vector<RunInfo> runs_;
};

}  // namespace perflab
