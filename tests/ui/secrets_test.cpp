// SPDX-License-Identifier: MIT
// Secrets through the desktop app: a run started from the form sends a ${NAME} reference's
// value, while the remembered spec (QSettings spec/last), a saved spec file and the database
// keep the reference, and a literal credential as "***"; a masked value or a variable not set
// does not start.
#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>
#include <random>

#include "http_test_server.h"
#include "main_window.h"
#include "run_session.h"
#include "spec_form.h"
#include "ui_tests.h"

using namespace perflab;

namespace {

const char* const kTokenVariable = "PERFLAB_UI_TEST_TOKEN";

std::string random_text(const char* prefix) {
    std::random_device device;
    std::mt19937_64 rng(device());
    return prefix + std::to_string(rng()) + std::to_string(rng());
}

nlohmann::json http_spec(const std::string& url, const nlohmann::json& headers) {
    return {{"name", "secrets ui test"},
            {"kind", "http"},
            {"tick_ms", 250},
            {"phases", {{{"duration_s", 1}, {"rate", 10}}}},
            {"http", {{"targets", {{{"url", url}, {"headers", headers}}}}}}};
}

// Every byte of every file under `dir`.
QByteArray bytes_under(const QString& dir) {
    QByteArray all;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly)) all += file.readAll();
    }
    return all;
}

QByteArray remembered_spec() {
    return QSettings().value(QStringLiteral("spec/last")).toByteArray();
}

// A window showing `spec` in its form, as if the user had typed it, then closed: the form's
// spec is what QSettings remembers.
void close_with(MainWindow& window, const nlohmann::json& spec) {
    window.specForm()->setJson(spec);
    QVERIFY2(window.specForm()->isValid(), qPrintable(window.specForm()->errorText()));
    QVERIFY(window.close());
}

}  // namespace

class SecretsTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void cleanupTestCase();
    void runSendsTheValueAndKeepsTheReference();
    void literalCredentialIsRememberedAndSavedMasked();
    void maskedValueDoesNotStart();
    void missingVariableDoesNotStart();

  private:
    QTemporaryDir settings_;
    QTemporaryDir data_;
    QByteArray oldData_;
    QString oldOrganization_;
    std::string token_ = random_text("tok");
    test::HttpTestServer server_;
};

void SecretsTest::initTestCase() {
    QVERIFY(settings_.isValid() && data_.isValid());
    // QSettings and the run database in places of this test's own.
    oldOrganization_ = QCoreApplication::organizationName();
    QCoreApplication::setOrganizationName(QStringLiteral("PerfLabSecretsTest"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_.path());
    oldData_ = qgetenv("XDG_DATA_HOME");
    qputenv("XDG_DATA_HOME", data_.path().toUtf8());
    qputenv(kTokenVariable, QByteArray::fromStdString(token_));
}

void SecretsTest::cleanupTestCase() {
    qunsetenv(kTokenVariable);
    qputenv("XDG_DATA_HOME", oldData_);
    QCoreApplication::setOrganizationName(oldOrganization_);
}

void SecretsTest::runSendsTheValueAndKeepsTheReference() {
    const std::string reference = std::string("Bearer ${") + kTokenVariable + "}";
    MainWindow window;
    window.specForm()->setJson(http_spec(server_.url("/"), {{"Authorization", reference}}));
    QVERIFY2(window.specForm()->isValid(), qPrintable(window.specForm()->errorText()));
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QString error;
    QVERIFY2(window.startRun(*window.specForm()->spec(), &error), qPrintable(error));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QVERIFY(server_.requests() > 0);
    const std::string head = server_.last_request_head();
    QVERIFY2(head.find("\r\nAuthorization: Bearer " + token_ + "\r\n") != std::string::npos,
             head.c_str());

    QVERIFY(window.close());
    const QByteArray remembered = remembered_spec();
    QVERIFY2(remembered.contains(QByteArray::fromStdString(reference)), remembered.constData());
    QVERIFY(!bytes_under(settings_.path()).contains(QByteArray::fromStdString(token_)));
    const QByteArray stored = bytes_under(data_.path());
    QVERIFY2(stored.contains(QByteArray::fromStdString(reference)), "the run was not stored");
    QVERIFY2(!stored.contains(QByteArray::fromStdString(token_)), "the token is in the database");
}

void SecretsTest::literalCredentialIsRememberedAndSavedMasked() {
    const std::string literal = random_text("Basic ");
    const nlohmann::json spec =
        http_spec(server_.url("/"), {{"authorization", literal}, {"Cookie", "secret=abc"}});
    {
        MainWindow window;
        close_with(window, spec);
        const QString file = settings_.filePath(QStringLiteral("saved.json"));
        QString error;
        QVERIFY2(window.specForm()->saveFile(file, &error), qPrintable(error));
        const QByteArray saved = bytes_under(settings_.path());
        QVERIFY(!saved.contains(QByteArray::fromStdString(literal)));
        QVERIFY(!saved.contains("secret=abc"));
        QFile::remove(file);
    }
    const auto remembered = nlohmann::json::parse(remembered_spec().toStdString());
    const auto& headers = remembered["http"]["targets"][0]["headers"];
    QCOMPARE(headers["authorization"].get<std::string>(), std::string("***"));
    QCOMPARE(headers["Cookie"].get<std::string>(), std::string("***"));
    // The next window starts from the remembered spec: the literal never comes back.
    MainWindow next;
    QVERIFY(!QByteArray::fromStdString(next.specForm()->json().dump())
                 .contains(QByteArray::fromStdString(literal)));
}

void SecretsTest::maskedValueDoesNotStart() {
    MainWindow window;
    window.specForm()->setJson(http_spec(server_.url("/"), {{"Authorization", "***"}}));
    QVERIFY2(window.specForm()->isValid(), qPrintable(window.specForm()->errorText()));
    const uint64_t sent = server_.requests();
    QString error;
    QVERIFY(!window.startRun(*window.specForm()->spec(), &error));
    QVERIFY2(error.contains(QStringLiteral("http.targets[0].headers.Authorization")),
             qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("${NAME}")), qPrintable(error));
    QVERIFY(!window.session()->running());
    QCOMPARE(server_.requests(), sent);
}

void SecretsTest::missingVariableDoesNotStart() {
    qunsetenv("PERFLAB_UI_TEST_UNSET");
    MainWindow window;
    window.specForm()->setJson(
        http_spec(server_.url("/"), {{"Cookie", "id=${PERFLAB_UI_TEST_UNSET}"}}));
    QVERIFY2(window.specForm()->isValid(), qPrintable(window.specForm()->errorText()));
    QString error;
    QVERIFY(!window.startRun(*window.specForm()->spec(), &error));
    QCOMPARE(error, QStringLiteral("http.targets[0].headers.Cookie: environment variable "
                                   "PERFLAB_UI_TEST_UNSET is not set"));
    QVERIFY(!window.session()->running());
}

int run_secrets_test(int argc, char** argv) {
    SecretsTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "secrets_test.moc"
