// SPDX-License-Identifier: MIT
#include "frozen_column_table.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>

namespace perflab {

FrozenColumnTable::FrozenColumnTable(QWidget* parent)
    : QTableWidget(parent), frozen_(new QTableView(this)) {
    frozen_->setObjectName(QStringLiteral("frozenColumn"));
    frozen_->setModel(model());
    frozen_->setSelectionModel(selectionModel());
    frozen_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    frozen_->setFocusPolicy(Qt::NoFocus);
    frozen_->setFrameShape(QFrame::NoFrame);
    frozen_->verticalHeader()->hide();
    frozen_->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    frozen_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen_->setVerticalScrollMode(verticalScrollMode());
    // Over the viewport, under the scroll bars: the other columns pass beneath it.
    viewport()->stackUnder(frozen_);
    // Pixel steps: by whole columns, a wide one would jump from beside the frozen one to past it.
    setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);

    connect(horizontalHeader(), &QHeaderView::sectionResized, this, [this](int column, int, int) {
        if (column == 0) placeFrozen();
    });
    connect(verticalHeader(), &QHeaderView::sectionResized, this,
            [this](int row, int, int height) { frozen_->setRowHeight(row, height); });
    connect(verticalScrollBar(), &QScrollBar::valueChanged, frozen_->verticalScrollBar(),
            &QScrollBar::setValue);
    connect(frozen_->verticalScrollBar(), &QScrollBar::valueChanged, verticalScrollBar(),
            &QScrollBar::setValue);
    // Columns come and go with each comparison; new ones must not show in the frozen view.
    connect(model(), &QAbstractItemModel::columnsInserted, this,
            &FrozenColumnTable::showFirstColumnOnly);
    connect(model(), &QAbstractItemModel::columnsRemoved, this,
            &FrozenColumnTable::showFirstColumnOnly);
    connect(model(), &QAbstractItemModel::modelReset, this,
            &FrozenColumnTable::showFirstColumnOnly);
    showFirstColumnOnly();
}

// QTableWidget's destructor, which runs after this one, clears the model and the headers: their
// signals must not reach the slots of this part, gone by then (UBSan saw modelReset do so).
FrozenColumnTable::~FrozenColumnTable() {
    disconnect(horizontalHeader(), nullptr, this, nullptr);
    disconnect(verticalHeader(), nullptr, this, nullptr);
    disconnect(model(), nullptr, this, nullptr);
}

void FrozenColumnTable::showFirstColumnOnly() {
    for (int column = 1; column < model()->columnCount(); ++column)
        frozen_->setColumnHidden(column, true);
    frozen_->setVisible(model()->columnCount() > 0);
    placeFrozen();
}

void FrozenColumnTable::placeFrozen() {
    frozen_->setColumnWidth(0, columnWidth(0));
    const int top = horizontalHeader()->isHidden() ? viewport()->y() : horizontalHeader()->y();
    frozen_->horizontalHeader()->setFixedHeight(horizontalHeader()->height());
    frozen_->setGeometry(viewport()->x(), top, columnWidth(0),
                         viewport()->y() + viewport()->height() - top);
}

void FrozenColumnTable::scrollTo(const QModelIndex& index, ScrollHint hint) {
    QScrollBar* sideways = horizontalScrollBar();
    const int x = sideways->value();
    QTableWidget::scrollTo(index, hint);
    if (!index.isValid()) return;
    // The first column is always in view: only its row is scrolled to.
    if (index.column() == 0) return sideways->setValue(x);
    const int covered = columnWidth(0) - visualRect(index).left();
    if (covered > 0) sideways->setValue(sideways->value() - covered);
}

void FrozenColumnTable::resizeEvent(QResizeEvent* event) {
    QTableWidget::resizeEvent(event);
    placeFrozen();
}

void FrozenColumnTable::updateGeometries() {
    QTableWidget::updateGeometries();
    placeFrozen();
}

}  // namespace perflab
