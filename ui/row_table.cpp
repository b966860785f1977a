// SPDX-License-Identifier: MIT
#include "row_table.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace perflab {

namespace {

const QColor kErrorBackground(255, 205, 210);

// How much of an error's path past its row ("process.top", "metrics[1]") a column's key names:
// the longest of its alternatives ("jvm|process") the path starts with, as a whole key; 0 when
// none does.
size_t named_length(const std::string& key, const std::string& path) {
    size_t best = 0;
    for (size_t from = 0; from <= key.size();) {
        const size_t bar = std::min(key.find('|', from), key.size());
        const std::string name = key.substr(from, bar - from);
        if (!name.empty() && path.starts_with(name) &&
            (path.size() == name.size() || path[name.size()] == '.' || path[name.size()] == '['))
            best = std::max(best, name.size());
        from = bar + 1;
    }
    return best;
}

}  // namespace

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
    const std::string path = !rest.empty() && rest.front() == '.' ? rest.substr(1) : rest;
    size_t best = 0;
    for (const Column& col : columns_)
        best = std::max(best, named_length(col.key, path));
    for (int c = 0; c < table_->columnCount(); ++c) {
        // An error no column names is about the whole row.
        if (best > 0 && named_length(columns_[size_t(c)].key, path) != best) continue;
        if (auto* item = table_->item(row, c)) {
            item->setBackground(kErrorBackground);
            item->setToolTip(message);
        }
    }
}

}  // namespace perflab
