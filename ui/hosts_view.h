// SPDX-License-Identifier: MIT
#pragma once

#include <QPointer>
#include <QWidget>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "host_book.h"
#include "host_check.h"
#include "host_details.h"
#include "remote/hardware_profile.h"
#include "remote/ssh_session.h"

class QPushButton;
class QTableWidget;

namespace perflab {

class HostDialog;

// The Hosts tab: the saved SSH hosts, added, edited and removed through a dialog, and a
// connection test that asks before trusting an unknown key, refuses a changed one and shows
// the host's hardware profile. The database and SSH work run on pool threads; a key's
// passphrase, when asked for, stays in this object's memory only.
class HostsView : public QWidget {
    Q_OBJECT
  public:
    explicit HostsView(std::string dbPath, std::string knownHostsPath = default_known_hosts_path(),
                       QWidget* parent = nullptr);

    const std::vector<SavedHost>& savedHosts() const { return hosts_; }
    // The saved hosts as probes for a run spec (type ssh, target, key, per_core).
    std::vector<ProbeSpec> savedProbes() const;
    // The passphrases the user gave a connection test, by key file: a run's probes use them.
    const std::map<std::string, std::string>& passphrases() const { return passphrases_; }
    int64_t selectedId() const;  // 0: none
    HostDialog* dialog() const;  // the open add/edit dialog, if any

    // The questions put to the user; message boxes by default, answered directly in tests.
    using TrustQuestion = std::function<bool(const SavedHost&, const QString& fingerprint)>;
    using RemoveQuestion = std::function<bool(const SavedHost&)>;
    using PassphraseQuestion = std::function<std::optional<QString>(const SavedHost&)>;
    using Warning = std::function<void(const QString& title, const QString& text)>;
    void setTrustQuestion(TrustQuestion ask) { askTrust_ = std::move(ask); }
    void setRemoveQuestion(RemoveQuestion ask) { askRemove_ = std::move(ask); }
    void setPassphraseQuestion(PassphraseQuestion ask) { askPassphrase_ = std::move(ask); }
    void setWarning(Warning warn) { warn_ = std::move(warn); }

  public slots:
    void reload();
    void select(int64_t id);
    void addHost();   // opens the dialog
    void editHost();  // the selected host
    void removeHost();
    void testConnection();

  signals:
    // After every load of the list: what the set-up form can offer as probes.
    void savedHostsChanged(const std::vector<perflab::SavedHost>& hosts);
    // A connection test ended (after any question), successfully or not.
    void connectionTested(qint64 id, bool ok, const QString& message);

  private:
    void load(int64_t selectId);
    void openDialog(const SavedHost& host);
    void save(const SavedHost& host);
    void showList(std::vector<SavedHost> hosts, int64_t selectId);
    void showSelected();
    void runCheck(const SavedHost& host, const std::string& trustedFingerprint,
                  bool passphraseAsked);
    void checked(const SavedHost& host, const HostCheck& check, bool passphraseAsked,
                 bool trustRetry);
    void setStatus(int64_t id, const QString& text, HostDetails::Tone tone);
    void updateButtons();
    const SavedHost* find(int64_t id) const;

    std::string dbPath_;
    std::string knownHosts_;
    std::vector<SavedHost> hosts_;
    std::map<int64_t, HardwareProfile> profiles_;
    std::map<int64_t, std::pair<QString, HostDetails::Tone>> statuses_;
    std::map<std::string, std::string> passphrases_;  // by key file; memory only
    uint64_t listGeneration_ = 0;
    int64_t checking_ = 0;  // the host being tested

    QTableWidget* table_;
    HostDetails* details_;
    QPushButton* add_;
    QPushButton* edit_;
    QPushButton* remove_;
    QPushButton* test_;
    QPointer<HostDialog> dialog_;

    TrustQuestion askTrust_;
    RemoveQuestion askRemove_;
    PassphraseQuestion askPassphrase_;
    Warning warn_;
};

}  // namespace perflab
