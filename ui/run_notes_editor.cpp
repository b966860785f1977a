// SPDX-License-Identifier: MIT
#include "run_notes_editor.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace perflab {

RunNotesEditor::RunNotesEditor(QWidget* parent)
    : QWidget(parent),
      title_(new QLabel(this)),
      notes_(new QPlainTextEdit(this)),
      tags_(new QLineEdit(this)),
      save_(new QPushButton(tr("Save notes and tags"), this)) {
    setupWidgets();
    setRun(nullptr);
}

void RunNotesEditor::setupWidgets() {
    notes_->setPlaceholderText(tr("What was special about this run: server flags, versions..."));
    tags_->setPlaceholderText(tr("baseline, tomcat"));
    tags_->setToolTip(tr("Tags, separated by commas or blanks"));
    auto* form = new QFormLayout;
    form->addRow(tr("Notes"), notes_);
    form->addRow(tr("Tags"), tags_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title_);
    layout->addLayout(form, 1);
    layout->addWidget(save_);
    connect(save_, &QPushButton::clicked, this,
            [this] { emit saveRequested(id_, notes_->toPlainText(), parseTags(tags_->text())); });
}

void RunNotesEditor::setRun(const RunInfo* run) {
    id_ = run ? run->id : 0;
    title_->setText(run ? tr("Run %1: %2").arg(id_).arg(QString::fromStdString(run->name))
                        : tr("Select one run to edit its notes and tags"));
    notes_->setPlainText(run ? QString::fromStdString(run->notes) : QString());
    QStringList tags;
    if (run)
        for (const auto& t : run->tags)
            tags << QString::fromStdString(t);
    tags_->setText(tags.join(QStringLiteral(", ")));
    for (QWidget* w : {static_cast<QWidget*>(notes_), static_cast<QWidget*>(tags_),
                       static_cast<QWidget*>(save_)})
        w->setEnabled(run != nullptr);
}

QStringList RunNotesEditor::parseTags(const QString& text) {
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    QStringList tags = text.split(separators, Qt::SkipEmptyParts);
    tags.removeDuplicates();
    return tags;
}

}  // namespace perflab
