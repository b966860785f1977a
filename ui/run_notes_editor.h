// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QWidget>

#include "run_store.h"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace perflab {

// The notes and tags of the run selected in the history. Save hands them over; the history
// writes them to the store.
class RunNotesEditor : public QWidget {
    Q_OBJECT
  public:
    explicit RunNotesEditor(QWidget* parent = nullptr);

    // nullptr: nothing to edit (no run, or several, selected).
    void setRun(const RunInfo* run);
    qint64 runId() const { return id_; }

    // "a, b c" → {a, b, c}: commas or blanks separate tags; duplicates go.
    static QStringList parseTags(const QString& text);

    QPlainTextEdit* notesEdit() const { return notes_; }
    QLineEdit* tagsEdit() const { return tags_; }
    QPushButton* saveButton() const { return save_; }

  signals:
    void saveRequested(qint64 id, const QString& notes, const QStringList& tags);

  private:
    void setupWidgets();

    QLabel* title_;
    QPlainTextEdit* notes_;
    QLineEdit* tags_;
    QPushButton* save_;
    qint64 id_ = 0;
};

}  // namespace perflab
