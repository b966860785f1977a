// SPDX-License-Identifier: MIT
#include "host_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "remote/ssh_session.h"

namespace perflab {

HostDialog::HostDialog(const SavedHost& host, QWidget* parent)
    : QDialog(parent),
      id_(host.id),
      name_(new QLineEdit(QString::fromStdString(host.name))),
      target_(new QLineEdit(QString::fromStdString(host.target))),
      key_(new QLineEdit(QString::fromStdString(host.key_file))),
      perCore_(new QCheckBox(tr("CPU per core as well"))),
      notes_(new QPlainTextEdit(QString::fromStdString(host.notes))),
      error_(new QLabel) {
    setWindowTitle(host.id ? tr("Edit host") : tr("Add host"));
    name_->setObjectName(QStringLiteral("name"));
    target_->setObjectName(QStringLiteral("target"));
    target_->setPlaceholderText(QStringLiteral("user@host[:port]"));
    key_->setObjectName(QStringLiteral("keyFile"));
    key_->setPlaceholderText(tr("empty: use ssh-agent"));
    perCore_->setObjectName(QStringLiteral("perCore"));
    perCore_->setChecked(host.per_core);
    notes_->setObjectName(QStringLiteral("notes"));
    notes_->setMaximumHeight(80);
    error_->setObjectName(QStringLiteral("error"));
    error_->setStyleSheet(QStringLiteral("color: #b00020"));
    error_->setWordWrap(true);
    error_->hide();

    auto* browse = new QPushButton(tr("Browse…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Private key"), key_->text(), {}, nullptr, QFileDialog::DontUseNativeDialog);
        if (!file.isEmpty()) key_->setText(file);
    });
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(key_);
    keyRow->addWidget(browse);

    auto* form = new QFormLayout;
    form->addRow(tr("Name"), name_);
    form->addRow(tr("Target"), target_);
    form->addRow(tr("Key file"), keyRow);
    form->addRow(QString(), perCore_);
    form->addRow(tr("Notes"), notes_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &HostDialog::submit);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(error_);
    layout->addWidget(buttons);
}

SavedHost HostDialog::host() const {
    SavedHost h;
    h.id = id_;
    h.name = name_->text().trimmed().toStdString();
    h.target = target_->text().trimmed().toStdString();
    h.key_file = key_->text().trimmed().toStdString();
    h.per_core = perCore_->isChecked();
    h.notes = notes_->toPlainText().toStdString();
    return h;
}

void HostDialog::showError(const QString& message) {
    error_->setText(message);
    error_->show();
}

QString HostDialog::problem() const {
    const SavedHost h = host();
    if (h.name.empty()) return tr("Name: give the host a name");
    if (!parse_ssh_target(h.target))
        return tr("Target: \"%1\" is not user@host[:port]").arg(QString::fromStdString(h.target));
    if (!h.key_file.empty() && !QFileInfo(key_->text().trimmed()).isFile())
        return tr("Key file: %1 is not a file").arg(QString::fromStdString(h.key_file));
    return {};
}

void HostDialog::submit() {
    const QString why = problem();
    if (!why.isEmpty()) {
        showError(why);
        return;
    }
    error_->hide();
    emit submitted(host());
}

}  // namespace perflab
