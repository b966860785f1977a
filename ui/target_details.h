// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>
#include <nlohmann/json.hpp>

class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace perflab {

// The selected HTTP target's fields that do not fit a table cell: its body template, its
// Content-Type and the checks on its responses ("expect"). Edits the part of the target's JSON
// object holding those keys; errors about them are shown next to their field.
class TargetDetails : public QWidget {
    Q_OBJECT
  public:
    explicit TargetDetails(QWidget* parent = nullptr);

    // {"body_template", "content_type", "expect"}, each only when given.
    nlohmann::json json() const;
    // Fills the fields without emitting changed().
    void setJson(const nlohmann::json& details);

    void clearErrors();
    // `rest` follows "http.targets[row]" in the error path (".expect.status"); `message` is
    // shown as the user reads it, the row counted from 1.
    void markError(const std::string& rest, const QString& message);

  signals:
    void changed();

  private:
    QLineEdit* line(QFormLayout* form, const QString& label, const std::string& key,
                    const QString& placeholder);
    QWidget* widgetFor(const std::string& rest) const;

    QPlainTextEdit* bodyTemplate_;
    QLineEdit* contentType_ = nullptr;
    QLineEdit* status_ = nullptr;
    QLineEdit* contains_ = nullptr;
    QLineEdit* regex_ = nullptr;
    QLineEdit* jsonPath_ = nullptr;
    QLineEdit* jsonEquals_ = nullptr;
    QLineEdit* maxBytes_ = nullptr;
    QLabel* errors_;
    bool filling_ = false;
};

// An error about target `row` (from 0) as the form's table numbers it: "target 2,
// expect.status: …" for "http.targets[1].expect.status: …".
QString target_error(int row, const std::string& rest, const std::string& message);

}  // namespace perflab
