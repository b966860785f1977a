// SPDX-License-Identifier: MIT
#include "hosts_view.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>

#include "host_dialog.h"

namespace perflab {

namespace {

template <class T>
struct Answer {
    std::optional<T> value;
    QString error;
};

// work() runs on a pool thread; done(Answer) on `context`'s thread, unless it is gone.
template <class Work, class Done>
void off_gui_thread(QObject* context, Work work, Done done) {
    using Result = Answer<decltype(work())>;
    auto* watcher = new QFutureWatcher<Result>(context);
    QObject::connect(watcher, &QFutureWatcherBase::finished, context,
                     [watcher, done = std::move(done)] {
                         watcher->deleteLater();
                         done(watcher->result());
                     });
    watcher->setFuture(QtConcurrent::run([work = std::move(work)] {
        Result answer;
        try {
            answer.value.emplace(work());
        } catch (const std::exception& e) {
            answer.error = QString::fromStdString(e.what());
        }
        return answer;
    }));
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

}  // namespace

HostsView::HostsView(std::string dbPath, std::string knownHostsPath, QWidget* parent)
    : QWidget(parent),
      dbPath_(std::move(dbPath)),
      knownHosts_(std::move(knownHostsPath)),
      table_(new QTableWidget(0, 2)),
      details_(new HostDetails),
      add_(new QPushButton(tr("Add…"))),
      edit_(new QPushButton(tr("Edit…"))),
      remove_(new QPushButton(tr("Remove"))),
      test_(new QPushButton(tr("Test connection"))) {
    table_->setObjectName(QStringLiteral("hosts"));
    table_->setHorizontalHeaderLabels({tr("Name"), tr("Target")});
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->verticalHeader()->hide();
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    details_->setObjectName(QStringLiteral("details"));
    add_->setObjectName(QStringLiteral("add"));
    edit_->setObjectName(QStringLiteral("edit"));
    remove_->setObjectName(QStringLiteral("remove"));
    test_->setObjectName(QStringLiteral("test"));

    connect(table_, &QTableWidget::itemSelectionChanged, this, &HostsView::showSelected);
    connect(table_, &QTableWidget::cellDoubleClicked, this, &HostsView::editHost);
    connect(add_, &QPushButton::clicked, this, &HostsView::addHost);
    connect(edit_, &QPushButton::clicked, this, &HostsView::editHost);
    connect(remove_, &QPushButton::clicked, this, &HostsView::removeHost);
    connect(test_, &QPushButton::clicked, this, &HostsView::testConnection);

    auto* buttons = new QHBoxLayout;
    for (QPushButton* b : {add_, edit_, remove_, test_})
        buttons->addWidget(b);
    buttons->addStretch();
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(table_);
    leftLayout->addLayout(buttons);
    auto* splitter = new QSplitter;
    splitter->addWidget(left);
    splitter->addWidget(details_);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(splitter);

    askTrust_ = [this](const SavedHost& host, const QString& fingerprint) {
        return QMessageBox::question(
                   this, tr("Unknown host key"),
                   tr("PerfLab has not seen %1 before. Its host key fingerprint is\n\n%2\n\n"
                      "Compare it with the host's own (ssh-keygen -lf on its host key). Trust "
                      "this key and record it in %3?")
                       .arg(q(host.target), fingerprint, q(knownHosts_)),
                   QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
    };
    askRemove_ = [this](const SavedHost& host) {
        return QMessageBox::question(this, tr("Remove host"),
                                     tr("Remove the saved host \"%1\" (%2)? Stored runs that "
                                        "probed it keep their data.")
                                         .arg(q(host.name), q(host.target)),
                                     QMessageBox::Yes | QMessageBox::No,
                                     QMessageBox::No) == QMessageBox::Yes;
    };
    askPassphrase_ = [this](const SavedHost& host) -> std::optional<QString> {
        bool ok = false;
        const QString pass = QInputDialog::getText(
            this, tr("Key passphrase"),
            tr("Passphrase for %1\n(kept in memory until PerfLab closes, never saved)")
                .arg(q(host.key_file)),
            QLineEdit::Password, {}, &ok);
        if (!ok) return std::nullopt;
        return pass;
    };
    warn_ = [this](const QString& title, const QString& text) {
        QMessageBox::warning(this, title, text);
    };

    updateButtons();
    reload();
}

std::vector<ProbeSpec> HostsView::savedProbes() const {
    std::vector<ProbeSpec> out;
    for (const auto& h : hosts_)
        out.push_back(probe_spec(h));
    return out;
}

HostDialog* HostsView::dialog() const {
    return dialog_;
}

int64_t HostsView::selectedId() const {
    const auto rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return 0;
    return table_->item(rows.first().row(), 0)->data(Qt::UserRole).toLongLong();
}

const SavedHost* HostsView::find(int64_t id) const {
    for (const auto& h : hosts_)
        if (h.id == id) return &h;
    return nullptr;
}

void HostsView::reload() {
    load(selectedId());
}

void HostsView::load(int64_t selectId) {
    const uint64_t generation = ++listGeneration_;
    off_gui_thread(
        this, [path = dbPath_] { return HostBook(path, Access::write).list(); },
        [this, generation, selectId](Answer<std::vector<SavedHost>> answer) {
            if (generation != listGeneration_) return;
            if (answer.value)
                showList(std::move(*answer.value), selectId);
            else
                details_->showStatus(tr("Cannot read the saved hosts: %1").arg(answer.error),
                                     HostDetails::Tone::error);
        });
}

void HostsView::showList(std::vector<SavedHost> hosts, int64_t selectId) {
    hosts_ = std::move(hosts);
    const QSignalBlocker block(table_);
    table_->setRowCount(int(hosts_.size()));
    int selectRow = hosts_.empty() ? -1 : 0;
    for (int row = 0; row < int(hosts_.size()); ++row) {
        const SavedHost& h = hosts_[size_t(row)];
        auto* name = new QTableWidgetItem(q(h.name));
        name->setData(Qt::UserRole, qlonglong(h.id));
        table_->setItem(row, 0, name);
        table_->setItem(row, 1, new QTableWidgetItem(q(h.target)));
        if (h.id == selectId) selectRow = row;
    }
    table_->clearSelection();
    if (selectRow >= 0) table_->selectRow(selectRow);
    showSelected();
    emit savedHostsChanged(hosts_);
}

void HostsView::select(int64_t id) {
    for (int row = 0; row < table_->rowCount(); ++row)
        if (table_->item(row, 0)->data(Qt::UserRole).toLongLong() == id) table_->selectRow(row);
}

void HostsView::showSelected() {
    const int64_t id = selectedId();
    details_->showHost(find(id));
    if (const auto s = statuses_.find(id); s != statuses_.end())
        details_->showStatus(s->second.first, s->second.second);
    if (const auto p = profiles_.find(id); p != profiles_.end()) details_->showProfile(&p->second);
    updateButtons();
}

void HostsView::updateButtons() {
    const bool selected = selectedId() != 0;
    edit_->setEnabled(selected);
    remove_->setEnabled(selected && checking_ != selectedId());
    test_->setEnabled(selected && checking_ == 0);
}

void HostsView::addHost() {
    openDialog(SavedHost{});
}

void HostsView::editHost() {
    if (const SavedHost* h = find(selectedId())) openDialog(*h);
}

void HostsView::openDialog(const SavedHost& host) {
    if (dialog_) dialog_->close();
    dialog_ = new HostDialog(host, this);
    dialog_->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog_, &HostDialog::submitted, this, &HostsView::save);
    dialog_->open();
}

void HostsView::save(const SavedHost& host) {
    QPointer<HostDialog> dialog = dialog_;
    off_gui_thread(
        this,
        [path = dbPath_, host] {
            HostBook book(path, Access::write);
            if (host.id == 0) return book.add(host);
            book.update(host);
            return host.id;
        },
        [this, dialog, host](Answer<int64_t> answer) {
            if (!answer.value) {
                if (dialog) dialog->showError(answer.error);
                return;
            }
            const SavedHost* before = find(host.id);
            if (before && (before->target != host.target || before->key_file != host.key_file)) {
                profiles_.erase(host.id);  // a profile of what may be another machine
                statuses_.erase(host.id);
            }
            if (dialog) dialog->accept();
            load(*answer.value);
        });
}

void HostsView::removeHost() {
    const SavedHost* found = find(selectedId());
    if (!found || !askRemove_(*found)) return;
    const SavedHost host = *found;
    off_gui_thread(
        this,
        [path = dbPath_, id = host.id] {
            HostBook(path, Access::write).remove(id);
            return id;
        },
        [this, host](Answer<int64_t> answer) {
            if (!answer.value) {
                setStatus(host.id, tr("Cannot remove %1: %2").arg(q(host.name), answer.error),
                          HostDetails::Tone::error);
                return;
            }
            profiles_.erase(host.id);
            statuses_.erase(host.id);
            reload();
        });
}

void HostsView::testConnection() {
    const SavedHost* host = find(selectedId());
    if (!host || checking_) return;
    runCheck(*host, {}, false);
}

void HostsView::runCheck(const SavedHost& host, const std::string& trustedFingerprint,
                         bool passphraseAsked) {
    checking_ = host.id;
    updateButtons();
    setStatus(host.id, tr("Connecting to %1…").arg(q(host.target)), HostDetails::Tone::info);
    const auto pass = passphrases_.find(host.key_file);
    off_gui_thread(
        this,
        [host, knownHosts = knownHosts_, trustedFingerprint,
         passphrase = pass == passphrases_.end() ? std::string() : pass->second] {
            return check_host(host, knownHosts, passphrase, trustedFingerprint);
        },
        [this, host, passphraseAsked,
         trustRetry = !trustedFingerprint.empty()](Answer<HostCheck> answer) {
            HostCheck check;
            if (answer.value)
                check = std::move(*answer.value);
            else
                check.message = answer.error.toStdString();
            checked(host, check, passphraseAsked, trustRetry);
        });
}

void HostsView::checked(const SavedHost& host, const HostCheck& check, bool passphraseAsked,
                        bool trustRetry) {
    checking_ = 0;
    updateButtons();
    const QString message = q(check.message);
    using Outcome = HostCheck::Outcome;
    switch (check.outcome) {
        case Outcome::ok:
            profiles_[host.id] = check.profile;
            setStatus(host.id, tr("Connected to %1").arg(q(host.target)), HostDetails::Tone::ok);
            if (selectedId() == host.id) details_->showProfile(&profiles_[host.id]);
            emit connectionTested(host.id, true, tr("Connected to %1").arg(q(host.target)));
            return;
        case Outcome::unknown_host:
            if (trustRetry) {  // recorded, yet still unknown: asking again would loop
                setStatus(host.id, tr("Not connected: %1").arg(message), HostDetails::Tone::error);
                break;
            }
            if (askTrust_(host, q(check.fingerprint))) {
                runCheck(host, check.fingerprint, passphraseAsked);
                return;
            }
            setStatus(host.id,
                      tr("Not connected: the host key %1 of %2 is not trusted")
                          .arg(q(check.fingerprint), q(host.target)),
                      HostDetails::Tone::warning);
            break;
        case Outcome::changed_host:
            setStatus(host.id, message, HostDetails::Tone::error);
            warn_(tr("Host key changed"),
                  tr("%1\n\nPerfLab refuses to connect. If the host was reinstalled, remove its "
                     "old line from %2 and test again.")
                      .arg(message, q(knownHosts_)));
            break;
        case Outcome::key:
            if (!passphraseAsked && QFileInfo(q(host.key_file)).isFile()) {
                if (const auto pass = askPassphrase_(host)) {
                    passphrases_[host.key_file] = pass->toStdString();
                    runCheck(host, {}, true);
                    return;
                }
            }
            passphrases_.erase(host.key_file);
            setStatus(host.id, message, HostDetails::Tone::error);
            break;
        default:
            setStatus(host.id, message, HostDetails::Tone::error);
            break;
    }
    emit connectionTested(host.id, false, statuses_[host.id].first);
}

void HostsView::setStatus(int64_t id, const QString& text, HostDetails::Tone tone) {
    statuses_[id] = {text, tone};
    if (selectedId() == id) details_->showStatus(text, tone);
}

}  // namespace perflab
