// SPDX-License-Identifier: MIT
// The Hosts view against a real sshd on loopback: hosts saved through the dialog land in the
// database, a connection test asks before trusting an unknown key and shows the host's real
// hardware, a changed key is refused, bad input names its field, removal asks first.
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <fstream>
#include <sstream>

#include "host_dialog.h"
#include "hosts_view.h"
#include "memcached_server.h"
#include "model/spec.h"
#include "process.h"
#include "run_bridge.h"
#include "run_session.h"
#include "sshd_server.h"
#include "ui_tests.h"

using namespace perflab;

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

QString file_text(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// MemTotal of this machine in kB: sshd runs here, so the remote profile must say the same.
QString local_mem_total_kb() {
    std::ifstream in("/proc/meminfo");
    std::string key, kb;
    while (in >> key >> kb)
        if (key == "MemTotal:") return q(kb);
    return {};
}

std::vector<SavedHost> stored_hosts(const QString& db) {
    return HostBook(db.toStdString(), Access::read).list();
}

}  // namespace

class HostsTest : public QObject {
    Q_OBJECT
  private slots:
    void addedHostIsTrustedOnRequestAndShowsItsProfile();
    void declinedKeyIsNotRecorded();
    void changedKeyIsRefusedWithAWarning();
    void keyReplacedWhileAskingIsNotTrusted();
    void passphraseIsAskedOnceNeverStoredAndReachesTheRun();
    void badInputNamesTheField();
    void editAndRemoveAskAndReachTheDatabase();

  private:
    static QString status(HostsView& view) {
        return view.findChild<QLabel*>(QStringLiteral("status"))->text();
    }
    static void click(HostsView& view, const char* button) {
        auto* b = view.findChild<QPushButton*>(QString::fromLatin1(button));
        QVERIFY(b);
        QVERIFY2(b->isEnabled(), button);
        b->click();
    }
    static void fill(HostDialog* dialog, const QString& name, const QString& target,
                     const QString& key) {
        dialog->findChild<QLineEdit*>(QStringLiteral("name"))->setText(name);
        dialog->findChild<QLineEdit*>(QStringLiteral("target"))->setText(target);
        dialog->findChild<QLineEdit*>(QStringLiteral("keyFile"))->setText(key);
        dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    }
    static void addHost(HostsView& view, const QString& name, const QString& target,
                        const QString& key) {
        const int rows = view.findChild<QTableWidget*>(QStringLiteral("hosts"))->rowCount();
        click(view, "add");
        QVERIFY(view.dialog());
        fill(view.dialog(), name, target, key);
        QTRY_VERIFY(!view.dialog());
        QTRY_COMPARE(view.findChild<QTableWidget*>(QStringLiteral("hosts"))->rowCount(), rows + 1);
    }
    struct ProbeRun {
        int hostSamples = 0;
        QStringList errors;
        QString refused;  // why the probe could not start: the run did not start either
    };
    // A short cache run, as the window starts one, with the sshd probed through `key`.
    static ProbeRun runWithSshProbe(const test::SshdServer& server, const std::string& key,
                                    ProbeOptions options) {
        test::MemcachedServer memcached;
        const SpecResult spec =
            parse_spec({{"name", "probe passphrase"},
                        {"kind", "cache"},
                        {"tick_ms", 500},
                        {"phases", {{{"duration_s", 2}, {"concurrency", 2}}}},
                        {"cache", {{"servers", {memcached.endpoint()}}}},
                        {"probes", {{{"ssh", server.target()}, {"key", key}}}}});
        ProbeRun run;
        if (!spec) {
            run.errors << q(spec.error_text());
            return run;
        }
        options.known_hosts = server.known_hosts();
        RunSession session;
        session.setProbeOptions(std::move(options));
        bool finished = false;
        // Queued to this thread: the bridge emits on the run's threads.
        QObject::connect(
            session.bridge(), &RunBridge::probeSampled, &session,
            [&](const ProbeSample& s) { run.hostSamples += s.kind == "host" && !s.gap; });
        QObject::connect(session.bridge(), &RunBridge::event, &session, [&](const RunEvent& e) {
            if (e.kind == "error") run.errors << q(e.text);
        });
        QObject::connect(&session, &RunSession::finished, [&] { finished = true; });
        QObject::connect(&session, &RunSession::probeRefused,
                         [&](const RunSpec&, int, const QString& why) {
                             run.refused = why;
                             finished = true;
                         });
        QString error;
        if (!session.start(*spec.spec, &error)) {
            run.errors << error;
            return run;
        }
        if (!QTest::qWaitFor([&] { return finished; }, 30000)) run.errors << "the run did not end";
        return run;
    }
    // Saves the sshd as a host through the dialog, selected.
    static void addServer(HostsView& view, const test::SshdServer& server, const std::string& key) {
        addHost(view, QStringLiteral("local sshd"), q(server.target()), q(key));
    }
};

void HostsTest::addedHostIsTrustedOnRequestAndShowsItsProfile() {
    test::SshdServer server;
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("perflab.db"));
    const QString known = dir.filePath(QStringLiteral("known_hosts"));
    HostsView view(db.toStdString(), known.toStdString());
    QStringList asked;
    view.setTrustQuestion([&](const SavedHost& host, const QString& fingerprint) {
        asked << q(host.target) + QLatin1Char(' ') + fingerprint;
        return true;
    });
    QStringList warnings;
    view.setWarning([&](const QString&, const QString& text) { warnings << text; });
    QSignalSpy changed(&view, &HostsView::savedHostsChanged);
    QSignalSpy tested(&view, &HostsView::connectionTested);
    view.show();

    addServer(view, server, server.client_key());
    const auto saved = stored_hosts(db);
    QCOMPARE(saved.size(), size_t(1));
    QCOMPARE(q(saved[0].target), q(server.target()));
    QCOMPARE(q(saved[0].key_file), q(server.client_key()));
    const auto probes = view.savedProbes();
    QCOMPARE(probes.size(), size_t(1));
    QCOMPARE(probes[0].type, ProbeSpec::Type::ssh);
    QCOMPARE(q(probes[0].target), q(server.target()));
    QCOMPARE(q(probes[0].key), q(server.client_key()));
    QVERIFY(!changed.isEmpty());
    QCOMPARE(changed.last().at(0).value<std::vector<SavedHost>>().size(), size_t(1));

    click(view, "test");
    QTRY_COMPARE_WITH_TIMEOUT(tested.size(), 1, 20000);
    QVERIFY2(tested.first().at(1).toBool(), qPrintable(tested.first().at(2).toString()));
    QCOMPARE(asked,
             QStringList{q(server.target()) + QLatin1Char(' ') + q(server.host_fingerprint())});
    QVERIFY(warnings.isEmpty());
    QVERIFY2(status(view).contains(QStringLiteral("Connected")), qPrintable(status(view)));

    // The accepted key is recorded: a plain session now trusts the host.
    QVERIFY(file_text(known).contains(QStringLiteral("[127.0.0.1]:%1").arg(server.port())));
    SshOptions o;
    o.key_file = server.client_key();
    o.known_hosts = known.toStdString();
    SshSession session(*parse_ssh_target(server.target()), o);
    session.connect();

    QLabel* memory = nullptr;
    QTRY_VERIFY2_WITH_TIMEOUT(
        (memory = view.findChild<QLabel*>(QStringLiteral("profile_memory"))) && memory->isVisible(),
        qPrintable(status(view)), 20000);
    const QString kb = local_mem_total_kb();
    QVERIFY(!kb.isEmpty());
    QVERIFY2(memory->text().contains(kb + QStringLiteral(" kB")), qPrintable(memory->text()));
    auto* host = view.findChild<QLabel*>(QStringLiteral("profile_hostname"));
    QCOMPARE(host->text(),
             QString::fromStdString(test::read_file("/proc/sys/kernel/hostname")).trimmed());

    // Known now: a second test asks nothing.
    click(view, "test");
    QTRY_COMPARE_WITH_TIMEOUT(tested.size(), 2, 20000);
    QVERIFY(tested.last().at(1).toBool());
    QCOMPARE(asked.size(), 1);
}

void HostsTest::declinedKeyIsNotRecorded() {
    test::SshdServer server;
    QTemporaryDir dir;
    const QString known = dir.filePath(QStringLiteral("known_hosts"));
    HostsView view(dir.filePath(QStringLiteral("perflab.db")).toStdString(), known.toStdString());
    int asked = 0;
    view.setTrustQuestion([&](const SavedHost&, const QString&) {
        ++asked;
        return false;
    });
    QSignalSpy tested(&view, &HostsView::connectionTested);
    addServer(view, server, server.client_key());
    click(view, "test");
    QTRY_COMPARE_WITH_TIMEOUT(tested.size(), 1, 20000);
    QCOMPARE(asked, 1);
    QVERIFY(!tested.first().at(1).toBool());
    QVERIFY2(status(view).contains(q(server.host_fingerprint())), qPrintable(status(view)));
    QVERIFY(!file_text(known).contains(QStringLiteral(":%1").arg(server.port())));
    QVERIFY(!view.findChild<QLabel*>(QStringLiteral("profile_memory")));
}

void HostsTest::changedKeyIsRefusedWithAWarning() {
    test::SshdServer server;
    QTemporaryDir dir;
    const std::string known = server.make_wrong_known_hosts("stale_known_hosts");
    const QString before = file_text(q(known));
    HostsView view(dir.filePath(QStringLiteral("perflab.db")).toStdString(), known);
    int asked = 0;
    view.setTrustQuestion([&](const SavedHost&, const QString&) { return ++asked, true; });
    QStringList warnings;
    view.setWarning([&](const QString&, const QString& text) { warnings << text; });
    QSignalSpy tested(&view, &HostsView::connectionTested);
    addServer(view, server, server.client_key());
    click(view, "test");
    QTRY_COMPARE_WITH_TIMEOUT(tested.size(), 1, 20000);
    QVERIFY(!tested.first().at(1).toBool());
    QCOMPARE(asked, 0);
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings[0].contains(QStringLiteral("HOST KEY CHANGED")), qPrintable(warnings[0]));
    QVERIFY(status(view).contains(QStringLiteral("HOST KEY CHANGED")));
    QCOMPARE(file_text(q(known)), before);
    QVERIFY(!view.findChild<QLabel*>(QStringLiteral("profile_memory")));
}

void HostsTest::keyReplacedWhileAskingIsNotTrusted() {
    test::SshdServer server;
    QTemporaryDir dir;
    const QString known = dir.filePath(QStringLiteral("known_hosts"));
    HostsView view(dir.filePath(QStringLiteral("perflab.db")).toStdString(), known.toStdString());
    QString accepted;
    // While the user reads the fingerprint, the host starts showing another key.
    view.setTrustQuestion([&](const SavedHost&, const QString& fingerprint) {
        accepted = fingerprint;
        server.replace_host_key();
        return true;
    });
    QStringList warnings;
    view.setWarning([&](const QString&, const QString& text) { warnings << text; });
    QSignalSpy tested(&view, &HostsView::connectionTested);
    addServer(view, server, server.client_key());
    const QString before = file_text(known);
    click(view, "test");
    QTRY_COMPARE_WITH_TIMEOUT(tested.size(), 1, 20000);
    QVERIFY(!tested.first().at(1).toBool());
    QVERIFY(!accepted.isEmpty());
    QVERIFY(accepted != q(server.host_fingerprint()));
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings[0].contains(accepted), qPrintable(warnings[0]));
    QVERIFY2(warnings[0].contains(q(server.host_fingerprint())), qPrintable(warnings[0]));
    QCOMPARE(file_text(known), before);
    QVERIFY(!view.findChild<QLabel*>(QStringLiteral("profile_memory")));
}

void HostsTest::passphraseIsAskedOnceNeverStoredAndReachesTheRun() {
    test::SshdServer server;
    QTemporaryDir dir;
    const std::string key = dir.filePath(QStringLiteral("locked_key")).toStdString();
    const std::string secret = "correct horse battery";
    QCOMPARE(test::run({"ssh-keygen", "-q", "-t", "ed25519", "-N", secret, "-f", key}).code, 0);
    std::ofstream(server.dir().file("authorized_keys"), std::ios::app)
        << test::read_file(key + ".pub");
    const QString db = dir.filePath(QStringLiteral("perflab.db"));
    HostsView view(db.toStdString(), server.known_hosts());
    QStringList answers{QStringLiteral("wrong"), q(secret)};
    int asked = 0;
    view.setPassphraseQuestion([&](const SavedHost& host) -> std::optional<QString> {
        if (host.key_file != key) return std::nullopt;
        return answers.value(asked++);
    });
    QSignalSpy tested(&view, &HostsView::connectionTested);
    addServer(view, server, key);

    click(view, "test");  // a wrong passphrase fails and is forgotten
    QTRY_COMPARE_WITH_TIMEOUT(tested.size(), 1, 20000);
    QVERIFY(!tested.last().at(1).toBool());
    QCOMPARE(asked, 1);
    QVERIFY2(status(view).contains(q(key)), qPrintable(status(view)));

    click(view, "test");
    QTRY_COMPARE_WITH_TIMEOUT(tested.size(), 2, 20000);
    QVERIFY2(tested.last().at(1).toBool(), qPrintable(tested.last().at(2).toString()));
    QCOMPARE(asked, 2);
    click(view, "test");  // remembered in memory
    QTRY_COMPARE_WITH_TIMEOUT(tested.size(), 3, 20000);
    QVERIFY(tested.last().at(1).toBool());
    QCOMPARE(asked, 2);

    for (const char* suffix : {"", "-wal", "-shm"}) {
        QFile f(db + QLatin1String(suffix));
        if (f.open(QIODevice::ReadOnly))
            QVERIFY2(!f.readAll().contains(QByteArray::fromStdString(secret)), suffix);
    }

    // A run's SSH probe gets what the test was told; without it, the probe cannot start and
    // neither does the run.
    ProbeOptions told;
    told.key_passphrases = view.passphrases();
    const ProbeRun with = runWithSshProbe(server, key, told);
    QVERIFY2(with.errors.isEmpty(), qPrintable(with.errors.join(QLatin1Char('\n'))));
    QVERIFY2(with.hostSamples >= 2, qPrintable(QString::number(with.hostSamples)));
    const ProbeRun without = runWithSshProbe(server, key, {});
    QCOMPARE(without.hostSamples, 0);
    QVERIFY2(without.errors.isEmpty(), qPrintable(without.errors.join(QLatin1Char('\n'))));
    QVERIFY2(without.refused.startsWith(QStringLiteral("probe 1 (ssh")),
             qPrintable(without.refused));
}

void HostsTest::badInputNamesTheField() {
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("perflab.db"));
    HostsView view(db.toStdString(), dir.filePath(QStringLiteral("known_hosts")).toStdString());
    click(view, "add");
    HostDialog* dialog = view.dialog();
    QVERIFY(dialog);
    auto* error = dialog->findChild<QLabel*>(QStringLiteral("error"));

    fill(dialog, QStringLiteral("db1"), QStringLiteral("db1.example"), {});
    QVERIFY(error->isVisible());
    QVERIFY2(error->text().startsWith(QStringLiteral("Target")), qPrintable(error->text()));
    QVERIFY(error->text().contains(QStringLiteral("db1.example")));

    fill(dialog, {}, QStringLiteral("root@db1.example"), {});
    QVERIFY2(error->text().startsWith(QStringLiteral("Name")), qPrintable(error->text()));

    fill(dialog, QStringLiteral("db1"), QStringLiteral("root@db1.example"),
         dir.filePath(QStringLiteral("no_such_key")));
    QVERIFY2(error->text().startsWith(QStringLiteral("Key file")), qPrintable(error->text()));
    QVERIFY(view.dialog());
    QVERIFY(!QFile::exists(db) || stored_hosts(db).empty());

    fill(dialog, QStringLiteral("db1"), QStringLiteral("root@db1.example:2222"), {});
    QTRY_VERIFY(!view.dialog());
    QCOMPARE(stored_hosts(db).size(), size_t(1));

    // A name already saved: the store's refusal, in the dialog, which stays open.
    click(view, "add");
    dialog = view.dialog();
    fill(dialog, QStringLiteral("db1"), QStringLiteral("root@other"), {});
    error = dialog->findChild<QLabel*>(QStringLiteral("error"));
    QTRY_VERIFY(error->isVisible());
    QVERIFY2(error->text().startsWith(QStringLiteral("name:")), qPrintable(error->text()));
    QVERIFY(error->text().contains(QStringLiteral("already saved")));
    QVERIFY(view.dialog());
    QCOMPARE(stored_hosts(db).size(), size_t(1));
}

void HostsTest::editAndRemoveAskAndReachTheDatabase() {
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("perflab.db"));
    {
        HostBook book(db.toStdString(), Access::write);
        SavedHost h;
        h.name = "alpha";
        h.target = "root@alpha:22";
        book.add(h);
        h.name = "beta";
        h.target = "root@beta:22";
        book.add(h);
    }
    HostsView view(db.toStdString(), dir.filePath(QStringLiteral("known_hosts")).toStdString());
    auto* table = view.findChild<QTableWidget*>(QStringLiteral("hosts"));
    QTRY_COMPARE(table->rowCount(), 2);
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("beta"));

    table->selectRow(1);
    click(view, "edit");
    QVERIFY(view.dialog());
    QCOMPARE(view.dialog()->findChild<QLineEdit*>(QStringLiteral("name"))->text(),
             QStringLiteral("beta"));
    fill(view.dialog(), QStringLiteral("beta"), QStringLiteral("deploy@beta:2200"), {});
    QTRY_VERIFY(!view.dialog());
    QTRY_COMPARE(table->item(1, 1)->text(), QStringLiteral("deploy@beta:2200"));
    QCOMPARE(q(stored_hosts(db)[1].target), QStringLiteral("deploy@beta:2200"));
    QCOMPARE(stored_hosts(db).size(), size_t(2));

    QStringList asked;
    bool answer = false;
    view.setRemoveQuestion([&](const SavedHost& host) {
        asked << q(host.name);
        return answer;
    });
    table->selectRow(0);
    click(view, "remove");
    QCOMPARE(asked, QStringList{QStringLiteral("alpha")});
    QTest::qWait(200);  // a removal would have been submitted right after the answer
    QCOMPARE(stored_hosts(db).size(), size_t(2));
    QCOMPARE(table->rowCount(), 2);

    answer = true;
    click(view, "remove");
    QCOMPARE(asked.size(), 2);
    QTRY_COMPARE(table->rowCount(), 1);
    const auto left = stored_hosts(db);
    QCOMPARE(left.size(), size_t(1));
    QCOMPARE(q(left[0].name), QStringLiteral("beta"));
    QCOMPARE(view.savedProbes().size(), size_t(1));
}

int run_hosts_test(int argc, char** argv) {
    HostsTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "hosts_test.moc"
