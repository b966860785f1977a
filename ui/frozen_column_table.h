// SPDX-License-Identifier: MIT
#pragma once

#include <QTableWidget>

class QTableView;

namespace perflab {

// A table whose first column stays in view while the others scroll sideways under it, so a
// row keeps its name however many columns follow. The column is a second, read-only view of
// the same model and selection, laid over the table's own first column and kept at its width,
// row heights and vertical scroll.
class FrozenColumnTable : public QTableWidget {
    Q_OBJECT
  public:
    explicit FrozenColumnTable(QWidget* parent = nullptr);

    // The model goes in QTableWidget's destructor, resizing the sections on its way out:
    // the frozen view must not be placed again by then.
    ~FrozenColumnTable() override;
    QTableView* frozenView() const { return frozen_; }

    // A cell scrolled to lands beside the frozen column, not under it.
    void scrollTo(const QModelIndex& index, ScrollHint hint = EnsureVisible) override;

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void updateGeometries() override;

  private:
    void showFirstColumnOnly();
    void placeFrozen();

    QTableView* frozen_;
};

}  // namespace perflab
