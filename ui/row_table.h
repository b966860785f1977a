// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QWidget>
#include <functional>
#include <nlohmann/json.hpp>

class QTableWidget;

namespace perflab {

// An editable list of spec objects (phases, HTTP targets, probes): one row each, one text
// cell per column. Converters given by the owner map a row to its JSON object and back;
// errors about "<prefix>[row].<key>" highlight that cell.
class RowTable : public QWidget {
    Q_OBJECT
  public:
    struct Column {
        QString title;
        // The JSON key an error path names; a nested one "process.top", alternatives
        // "jvm|process". An error goes to the column naming most of its path.
        std::string key;
        QString placeholder;
    };
    using ToJson = std::function<nlohmann::json(const QStringList& cells)>;
    using FromJson = std::function<QStringList(const nlohmann::json& object)>;

    RowTable(std::vector<Column> columns, ToJson to_json, FromJson from_json,
             QWidget* parent = nullptr);

    nlohmann::json toJson() const;  // an array; empty rows are left out
    void setJson(const nlohmann::json& array);
    void addRow(const QStringList& cells = {});
    int rowCount() const;
    QTableWidget* table() const { return table_; }

    void clearErrors();
    // `rest` is what follows "prefix[row]" in the error path: ".rate", "" ...
    void markError(int row, const std::string& rest, const QString& message);

  signals:
    void changed();

  private:
    void setupButtons();
    QStringList cells(int row) const;

    std::vector<Column> columns_;
    ToJson to_json_;
    FromJson from_json_;
    QTableWidget* table_;
};

}  // namespace perflab
