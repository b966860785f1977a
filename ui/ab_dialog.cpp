// SPDX-License-Identifier: MIT
#include "ab_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>
#include <utility>

#include "file_dialogs.h"

namespace perflab {

namespace {

QList<qint64> ids_of(const QJsonValue& side) {
    QList<qint64> ids;
    for (const auto& id : side.toArray())
        ids << qint64(id.toDouble());
    return ids;
}

}  // namespace

AbDialog::AbDialog(std::string dbPath, QString perflab, QWidget* parent)
    : QDialog(parent),
      dbPath_(std::move(dbPath)),
      perflab_(std::move(perflab)),
      specA_(new QLineEdit(this)),
      specB_(new QLineEdit(this)),
      repeat_(new QSpinBox(this)),
      progress_(new QProgressBar(this)),
      status_(new QLabel(this)),
      log_(new QPlainTextEdit(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Close, this)) {
    setWindowTitle(tr("Compare two specs (A/B)"));
    auto* form = new QFormLayout;
    const auto file_row = [this, form](const QString& label, QLineEdit* edit) {
        auto* row = new QHBoxLayout;
        auto* browse = new QPushButton(tr("Browse…"), this);
        row->addWidget(edit, 1);
        row->addWidget(browse);
        form->addRow(label, row);
        connect(browse, &QPushButton::clicked, this, [this, edit] {
            const QString path =
                ask_open_path(this, tr("Spec"), tr("Run spec (*.json)"), QStringLiteral("specDir"));
            if (!path.isEmpty()) edit->setText(path);
        });
    };
    file_row(tr("Spec &A (compared with)"), specA_);
    file_row(tr("Spec &B"), specB_);
    repeat_->setRange(1, 100);
    repeat_->setValue(3);
    form->addRow(tr("&Runs of each"), repeat_);
    auto* explain = new QLabel(
        tr("Runs go A B B A A B…, each in a process of its own, so the machine's drift falls on "
           "both sides alike; then the two series are compared."),
        this);
    explain->setWordWrap(true);
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(2000);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    status_->setWordWrap(true);
    auto* startButton = buttons_->addButton(tr("&Start"), QDialogButtonBox::AcceptRole);
    startButton->setObjectName(QStringLiteral("abStart"));
    connect(startButton, &QPushButton::clicked, this, &AbDialog::start);
    connect(buttons_, &QDialogButtonBox::rejected, this, &AbDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explain);
    layout->addLayout(form);
    layout->addWidget(progress_);
    layout->addWidget(status_);
    layout->addWidget(log_, 1);
    layout->addWidget(buttons_);
    resize(640, 420);
}

AbDialog::~AbDialog() {
    if (process_ && process_->state() != QProcess::NotRunning) {
        process_->disconnect(this);
        process_->terminate();
        process_->waitForFinished(-1);
    }
}

void AbDialog::setSpecs(const QString& a, const QString& b) {
    specA_->setText(a);
    specB_->setText(b);
}

void AbDialog::setRepeat(int n) {
    repeat_->setValue(n);
}

QString AbDialog::status() const {
    return status_->text();
}

void AbDialog::start() {
    if (process_) return;
    if (specA_->text().isEmpty() || specB_->text().isEmpty()) {
        status_->setText(tr("Choose both specs."));
        return;
    }
    process_ = new QProcess(this);
    pending_.clear();
    log_->clear();
    progress_->setRange(0, 2 * repeat_->value());
    progress_->setValue(0);
    connect(process_, &QProcess::readyReadStandardError, this, &AbDialog::readProgress);
    connect(process_, &QProcess::finished, this, &AbDialog::onFinished);
    setRunning(true);
    status_->setText(tr("Running…"));
    process_->start(
        perflab_, {QStringLiteral("ab"), specA_->text(), specB_->text(), QStringLiteral("--repeat"),
                   QString::number(repeat_->value()), QStringLiteral("--json"),
                   QStringLiteral("--db"), QString::fromStdString(dbPath_)});
}

// The experiment's lines come on stderr: "== ab-…: A run 2 of 3 (…)" as each run starts, the
// runs' reports, and the reason when it stops.
void AbDialog::readProgress() {
    pending_ += process_->readAllStandardError();
    static const QRegularExpression started(QStringLiteral(R"(^== ab-\S+: [AB] run \d+ of \d+)"));
    for (qsizetype nl = pending_.indexOf('\n'); nl >= 0; nl = pending_.indexOf('\n')) {
        const QString line = QString::fromUtf8(pending_.left(nl));
        pending_.remove(0, nl + 1);
        log_->appendPlainText(line);
        if (started.match(line).hasMatch()) {
            progress_->setValue(progress_->value() + 1);
            status_->setText(line.mid(3));
        }
    }
}

void AbDialog::onFinished(int code, QProcess::ExitStatus exitStatus) {
    readProgress();
    const QByteArray out = process_->readAllStandardOutput();
    process_->deleteLater();
    process_ = nullptr;
    setRunning(false);
    const QJsonObject comparison = QJsonDocument::fromJson(out).object();
    const QJsonArray sides = comparison.value(QStringLiteral("sides")).toArray();
    if (exitStatus != QProcess::NormalExit || (code != 0 && code != 3) || sides.size() != 2) {
        status_->setText(tr("The experiment stopped (exit %1); see the log.").arg(code));
        status_->setStyleSheet(QStringLiteral("color:#b00020"));
        return;
    }
    progress_->setValue(progress_->maximum());
    status_->setStyleSheet({});
    status_->setText(tr("Done: A runs and B runs stored; comparing them."));
    emit experimentFinished(ids_of(sides[0]), ids_of(sides[1]));
}

void AbDialog::setRunning(bool running) {
    specA_->setEnabled(!running);
    specB_->setEnabled(!running);
    repeat_->setEnabled(!running);
    for (auto* b : buttons_->buttons())
        if (buttons_->buttonRole(b) == QDialogButtonBox::AcceptRole) b->setEnabled(!running);
    buttons_->button(QDialogButtonBox::Close)
        ->setText(running ? tr("Stop") : QDialogButtonBox::tr("Close"));
}

// Close while it runs stops the experiment (the run in progress stops as on Ctrl-C and is
// kept); the dialog stays until it has.
void AbDialog::reject() {
    if (process_) {
        status_->setText(tr("Stopping…"));
        process_->terminate();
        return;
    }
    QDialog::reject();
}

}  // namespace perflab
