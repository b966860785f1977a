// SPDX-License-Identifier: MIT
#include "row_table.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace perflab {

namespace {
const QColor kErrorBackground(255, 205, 210);
}

RowTable::RowTable(std::vector<Column> columns, ToJson to_json, FromJson from_json, QWidget* parent)
    : QWidget(parent),
      columns_(std::move(columns)),
      to_json_(std::move(to_json)),
      from_json_(std::move(from_json)),
      table_(new QTableWidget(0, int(columns_.size()), this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    QStringList titles;
    for (const auto& c : columns_)
        titles << c.title;
    table_->setHorizontalHeaderLabels(titles);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->setDefaultSectionSize(22);
    table_->setMinimumHeight(90);
    layout->addWidget(table_);
    setupButtons();
    connect(table_, &QTableWidget::itemChanged, this, &RowTable::changed);
}

void RowTable::setupButtons() {
    auto* row = new QHBoxLayout;
    auto* add = new QPushButton(tr("Add"), this);
    auto* remove = new QPushButton(tr("Remove"), this);
    connect(add, &QPushButton::clicked, this, [this] { addRow(); });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int r = table_->currentRow();
        table_->removeRow(r >= 0 ? r : table_->rowCount() - 1);
        emit changed();
    });
    row->addWidget(add);
    row->addWidget(remove);
    row->addStretch();
    static_cast<QVBoxLayout*>(layout())->addLayout(row);
}

void RowTable::addRow(const QStringList& values) {
    const QSignalBlocker block(table_);
    const int r = table_->rowCount();
    table_->insertRow(r);
    for (int c = 0; c < int(columns_.size()); ++c) {
        auto* item = new QTableWidgetItem(c < values.size() ? values[c] : QString());
        item->setToolTip(columns_[size_t(c)].placeholder);
        table_->setItem(r, c, item);
    }
    emit changed();
}

int RowTable::rowCount() const {
    return table_->rowCount();
}

QStringList RowTable::cells(int row) const {
    QStringList out;
    for (int c = 0; c < table_->columnCount(); ++c)
        out << (table_->item(row, c) ? table_->item(row, c)->text().trimmed() : QString());
    return out;
}

nlohmann::json RowTable::toJson() const {
    nlohmann::json a = nlohmann::json::array();
    for (int r = 0; r < table_->rowCount(); ++r) {
        const QStringList c = cells(r);
        if (std::all_of(c.begin(), c.end(), [](const QString& s) { return s.isEmpty(); })) continue;
        a.push_back(to_json_(c));
    }
    return a;
}

void RowTable::setJson(const nlohmann::json& array) {
    {
        const QSignalBlocker block(table_);
        table_->setRowCount(0);
    }
    if (array.is_array())
        for (const auto& object : array)
            addRow(from_json_(object));
    emit changed();
}

void RowTable::clearErrors() {
    const QSignalBlocker block(table_);
    for (int r = 0; r < table_->rowCount(); ++r)
        for (int c = 0; c < table_->columnCount(); ++c)
            if (auto* item = table_->item(r, c)) {
                item->setBackground(QBrush());
                item->setToolTip(columns_[size_t(c)].placeholder);
            }
}

void RowTable::markError(int row, const std::string& rest, const QString& message) {
    const QSignalBlocker block(table_);
    std::string key = rest;
    if (!key.empty() && key.front() == '.') key.erase(0, 1);
    key = key.substr(0, key.find_first_of(".["));
    for (int c = 0; c < table_->columnCount(); ++c) {
        const bool all =
            key.empty() || std::none_of(columns_.begin(), columns_.end(),
                                        [&](const Column& col) { return col.key == key; });
        if (!all && columns_[size_t(c)].key != key) continue;
        if (auto* item = table_->item(row, c)) {
            item->setBackground(kErrorBackground);
            item->setToolTip(message);
        }
    }
}

}  // namespace perflab
