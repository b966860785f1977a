// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

#include "host_book.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace perflab {

// Adds or edits one saved host. OK checks the fields first (a message naming the field
// stays in the dialog); the owner then saves and calls accept(), or showError() with why
// the store refused.
class HostDialog : public QDialog {
    Q_OBJECT
  public:
    explicit HostDialog(const SavedHost& host, QWidget* parent = nullptr);

    SavedHost host() const;  // as edited, with the id it was opened with
    void showError(const QString& message);

  signals:
    void submitted(const perflab::SavedHost& host);

  private:
    void submit();
    QString problem() const;  // empty when the fields are valid

    int64_t id_;
    QLineEdit* name_;
    QLineEdit* target_;
    QLineEdit* key_;
    QCheckBox* perCore_;
    QPlainTextEdit* notes_;
    QLabel* error_;
};

}  // namespace perflab
