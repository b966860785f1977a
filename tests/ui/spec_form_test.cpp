// SPDX-License-Identifier: MIT
// The set-up form against the real validator: shipped templates load valid, an invalid
// field is highlighted with its message and blocks Start, a saved spec is what `perflab run`
// takes. The messages count table rows from 1, min above max marks both fields, and the
// summary of errors keeps its height so that no field moves as errors come and go.
#include "spec_form.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFrame>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include "host_book.h"
#include "main_window.h"
#include "phase_preview.h"
#include "probe_row.h"
#include "row_table.h"
#include "spec_tables.h"
#include "ui_tests.h"

using namespace perflab;

class SpecFormTest : public QObject {
    Q_OBJECT
  private slots:
    void templateLoadsValid_data();
    void templateLoadsValid();
    void invalidFieldBlocksStart_data();
    void invalidFieldBlocksStart();
    void invalidPhaseCellIsMarked();
    void savedSpecIsWhatRunTakes();
    void savedHostBecomesAProbe();
    void agentsRoundTripAndSavedHostBecomesAnAgent();
    void everyKindOfProbeRoundTrips();
    void prometheusAndProcessProbesHaveTheirOwnCells();
    void badSelectorAndUrlAreMarkedInTheirCells();
    void multigetAndReplayRoundTrip();
    void validationIsInViewWithoutScrolling();
    void targetWeightsBodiesAndChecksRoundTrip();
    void previewRendersThreeRequests();
    void badTemplateShowsItsErrorInThePreview();
    void badExpectStatusIsMarked();
    void previewReadsCsvRowsInOrder();
    void badWeightCellIsMarked();
    void http2AndMaxStreamsRoundTrip();
    void sessionRoundTripsAndPreviewsItsVariable();
    void badSessionStepIsMarked();
    void minAboveMaxMarksBothFields();
    void summaryKeepsItsHeight();
    void phaseWorkloadsRoundTrip();
    void redisCommandsRoundTripAndPreview();
    void redisConnectionAndTlsFieldsRoundTrip();

  private:
    // Two targets using every key the targets table and the target details edit.
    static nlohmann::json httpSpec() {
        const nlohmann::json expect = {{"status", {200, 201}},
                                       {"body_contains", "ok"},
                                       {"body_regex", "^\\{"},
                                       {"json", {{"path", "$.ok"}, {"equals", true}}},
                                       {"max_bytes", 4096}};
        const nlohmann::json post = {
            {"method", "POST"},
            {"url", "http://127.0.0.1:8080/items/{{seq}}?u={{uniform 1 1000000}}"},
            {"weight", 3},
            {"body_template", "{\"id\": {{seq}}}"},
            {"content_type", "application/json"},
            {"expect", expect}};
        const nlohmann::json get = {
            {"method", "GET"},
            {"url", "http://127.0.0.1:8080/health"},
            {"expect", {{"json", {{"path", "$.state"}, {"equals", "true"}}}}}};
        return {{"kind", "http"},
                {"phases", {{{"duration_s", 10}, {"concurrency", 2}}}},
                {"http", {{"targets", {post, get}}}}};
    }
    // Users log in with the first target and fetch the second with the captured token.
    static nlohmann::json sessionSpec() {
        nlohmann::json spec = httpSpec();
        spec["http"]["targets"][1]["headers"] = {{"Authorization", "Bearer {{var token}}"}};
        spec["http"]["session"] = {
            {{"target", 0}, {"capture", {{"name", "token"}, {"json", "$.token"}}}},
            {{"target", 1}, {"think_ms", {500, 1500}}},
            {{"target", 1},
             {"think_ms", 200},
             {"capture", {{"name", "etag"}, {"header", "ETag"}}}}};
        return spec;
    }
    static QTableWidget* sessionTable(SpecForm& form) {
        return form.findChild<RowTable*>(QStringLiteral("http.session"))->table();
    }
    static QTableWidget* targetTable(SpecForm& form) {
        return form.findChild<RowTable*>(QStringLiteral("http.targets"))->table();
    }
    static QString previewText(SpecForm& form) {
        return form.findChild<QPlainTextEdit*>(QStringLiteral("requestPreview"))->toPlainText();
    }
    static void loadHot(SpecForm& form) {
        QString error;
        QVERIFY2(form.loadTemplate(QStringLiteral(":/specs/cache-aside-hot.json"), &error),
                 qPrintable(error));
        QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    }
};

void SpecFormTest::templateLoadsValid_data() {
    QTest::addColumn<QString>("resource");
    const QStringList templates = SpecForm::templates();
    QVERIFY(templates.size() >= 4);
    for (const QString& t : templates)
        QTest::newRow(qPrintable(t)) << t;
}

void SpecFormTest::templateLoadsValid() {
    QFETCH(QString, resource);
    SpecForm form;
    QString error;
    QVERIFY2(form.loadTemplate(resource, &error), qPrintable(error));
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QVERIFY(form.startButton()->isEnabled());
    // The form loses nothing: what it builds is the template, normalised.
    QFile file(resource);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const SpecResult original = parse_spec_text(file.readAll().toStdString());
    QVERIFY(original);
    QCOMPARE(QString::fromStdString(to_json(*form.spec()).dump()),
             QString::fromStdString(to_json(*original.spec).dump()));
}

void SpecFormTest::invalidFieldBlocksStart_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("text");
    QTest::newRow("key count not a number") << "cache.keys.count"
                                            << "many";
    QTest::newRow("negative tick") << "tick_ms"
                                   << "-5";
    QTest::newRow("server without port") << "cache.servers"
                                         << "nohost";
    QTest::newRow("value min above max") << "cache.value_size.min"
                                         << "999999999";
    QTest::newRow("multiget with cache-aside") << "cache.multiget"
                                               << "8";
    QTest::newRow("replay file missing") << "cache.replay.file"
                                         << "/nonexistent/ops.txt";
}

void SpecFormTest::invalidFieldBlocksStart() {
    QFETCH(QString, path);
    QFETCH(QString, text);
    SpecForm form;
    loadHot(form);
    auto* edit = form.findChild<QLineEdit*>(path);
    QVERIFY(edit);
    const QString good = edit->text();
    edit->setText(text);
    QVERIFY(!form.isValid());
    QVERIFY(!form.startButton()->isEnabled());
    QVERIFY2(form.errorText().contains(path.section(QLatin1Char('.'), 0, 0)),
             qPrintable(form.errorText()));
    QVERIFY2(!edit->toolTip().isEmpty() && !edit->styleSheet().isEmpty(),
             "the field the validator names is highlighted with its message");
    QVERIFY(form.errorText().contains(edit->toolTip()));
    edit->setText(good);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QVERIFY(form.startButton()->isEnabled());
    QVERIFY(edit->toolTip().isEmpty());
}

void SpecFormTest::invalidPhaseCellIsMarked() {
    SpecForm form;
    loadHot(form);
    auto* phases = form.findChild<RowTable*>(QStringLiteral("phases"));
    QVERIFY(phases);
    phases->table()->item(0, 0)->setText(QStringLiteral("-1"));
    QVERIFY(!form.startButton()->isEnabled());
    // The table's first row is row 1, in the summary and in the cell's tooltip.
    QVERIFY2(form.errorText().contains(QStringLiteral("phase 1, duration_s: ")),
             qPrintable(form.errorText()));
    QVERIFY2(!form.errorText().contains(QStringLiteral("phases[0]")), qPrintable(form.errorText()));
    QVERIFY(phases->table()->item(0, 0)->toolTip().startsWith(QStringLiteral("phase 1, ")));
    QVERIFY(phases->table()->item(0, 0)->background() != QBrush());
    QVERIFY(phases->table()->item(0, 1)->background() == QBrush());
}

void SpecFormTest::savedSpecIsWhatRunTakes() {
    SpecForm form;
    loadHot(form);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("spec.json"));
    QString error;
    QVERIFY2(form.saveFile(path, &error), qPrintable(error));
    const SpecResult saved = load_spec_file(path.toStdString());
    QVERIFY2(saved, saved.error_text().c_str());
    QCOMPARE(saved.spec->name, form.spec()->name);
    SpecForm reopened;
    QVERIFY2(reopened.loadFile(path, &error), qPrintable(error));
    QVERIFY(reopened.isValid());
}

void SpecFormTest::multigetAndReplayRoundTrip() {
    QTemporaryDir dir;
    const QString ops = dir.filePath(QStringLiteral("ops.txt"));
    QFile file(ops);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("get a\nset b 10\n");
    file.close();
    SpecForm form;
    loadHot(form);
    form.findChild<QComboBox*>(QStringLiteral("cache.workload"))
        ->setCurrentText(QStringLiteral("get-only"));
    form.findChild<QLineEdit*>(QStringLiteral("cache.multiget"))->setText(QStringLiteral("16"));
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(form.spec()->cache->multiget, 16u);
    form.findChild<QLineEdit*>(QStringLiteral("cache.multiget"))->setText(QString());
    form.findChild<QLineEdit*>(QStringLiteral("cache.replay.file"))->setText(ops);
    form.findChild<QLineEdit*>(QStringLiteral("cache.replay.speed"))
        ->setText(QStringLiteral("max"));
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(form.spec()->cache->replay->speed, 0.0);
    const QString path = dir.filePath(QStringLiteral("spec.json"));
    QString error;
    QVERIFY2(form.saveFile(path, &error), qPrintable(error));
    SpecForm reopened;
    QVERIFY2(reopened.loadFile(path, &error), qPrintable(error));
    QCOMPARE(reopened.findChild<QLineEdit*>(QStringLiteral("cache.replay.file"))->text(), ops);
    QCOMPARE(reopened.findChild<QLineEdit*>(QStringLiteral("cache.replay.speed"))->text(),
             QStringLiteral("max"));
}

void SpecFormTest::savedHostBecomesAProbe() {
    SpecForm form;
    loadHot(form);
    QVERIFY(!form.savedHostsButton()->isEnabled());
    SavedHost host;
    host.name = "db-primary";
    host.target = "probe@127.0.0.1:2222";
    host.key_file = "/keys/id_ed25519";
    host.per_core = true;
    form.setSavedHosts({host});
    QVERIFY(form.savedHostsButton()->isEnabled());
    const auto actions = form.savedHostsButton()->menu()->actions();
    QCOMPARE(actions.size(), 1);
    QCOMPARE(actions[0]->text(), QStringLiteral("db-primary (probe@127.0.0.1:2222)"));
    actions[0]->trigger();
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    const ProbeSpec& added = form.spec()->probes.back();
    QCOMPARE(added.type, ProbeSpec::Type::ssh);
    QCOMPARE(added.target, host.target);
    QCOMPARE(added.key, host.key_file);
    QVERIFY(added.per_core);
}

// A probe of every kind, with the keys of its kind (a prometheus probe's metrics and via, a
// process probe's match, a redis probe's password reference), comes back out of the form as it
// went in; a "more" cell that is not a JSON object is marked, naming the column.
void SpecFormTest::everyKindOfProbeRoundTrips() {
    SpecForm form;
    loadHot(form);
    nlohmann::json j = form.json();
    const nlohmann::json probes = {
        {{"local", true}, {"per_core", true}},
        {{"ssh", "probe@127.0.0.1:2222"}, {"key", "/keys/a"}},
        {{"memcached", "127.0.0.1:11211"}},
        {{"jvm", {{"ssh", "probe@127.0.0.1:2222"}, {"match", "Server"}}}},
        {{"redis", "127.0.0.1:6379"}, {"password", "${REDIS_PASSWORD}"}},
        {{"prometheus", "http://127.0.0.1:9100/metrics"},
         {"metrics", {"node_load1", "node_cpu_seconds_total{mode!=\"idle\"}"}},
         {"via", "probe@127.0.0.1:2222"}},
        {{"process", {{"match", "java"}, {"top", 3}}}, {"via", "probe@127.0.0.1:2222"}}};
    j["probes"] = probes;
    form.setJson(j);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(QString::fromStdString(form.json()["probes"].dump()),
             QString::fromStdString(probes.dump()));
    QCOMPARE(form.spec()->probes.size(), probes.size());
    QCOMPARE(form.spec()->probes[5].metrics.size(), size_t(2));
    QCOMPARE(form.spec()->probes[6].match, std::string("java"));

    auto* table = form.findChild<RowTable*>(QStringLiteral("probes"));
    QVERIFY(table);
    table->table()->item(5, kProbeMore)->setText(QStringLiteral("[1, 2]"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.errorText().contains(QStringLiteral("more")), qPrintable(form.errorText()));
    // A spec whose probe is not an object opens, marked, rather than taking the window down.
    j["probes"] = {"x"};
    form.setJson(j);
    QVERIFY(!form.isValid());
    QCOMPARE(table->rowCount(), 1);
}

namespace {

// A prometheus probe with a selector holding a comma inside its braces, and a process probe.
const std::string kCommaSelector = R"(x{a="1",b!~"x,y"})";

nlohmann::json prometheusAndProcessProbes() {
    return {{{"prometheus", "http://127.0.0.1:9100/metrics"},
             {"metrics", {"node_load1", kCommaSelector}},
             {"interval_ms", 2000},
             {"via", "probe@127.0.0.1:2222"},
             {"key", "/keys/a"}},
            {{"process", {{"pid", 4242}, {"top", 3}}}, {"via", "probe@127.0.0.1:2222"}}};
}

QTableWidget* probeTable(const SpecForm& form) {
    return form.findChild<RowTable*>(QStringLiteral("probes"))->table();
}

}  // namespace

// A prometheus probe's URL, selectors, interval and via, and a process probe's pid and top
// threads each have a cell of their own, nothing left as JSON: the spec comes back out as it
// went in, and what is typed in those cells is what the spec gets (the comma inside a
// selector's braces staying in it).
void SpecFormTest::prometheusAndProcessProbesHaveTheirOwnCells() {
    SpecForm form;
    loadHot(form);
    nlohmann::json j = form.json();
    j["probes"] = prometheusAndProcessProbes();
    form.setJson(j);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(QString::fromStdString(form.json()["probes"].dump()),
             QString::fromStdString(prometheusAndProcessProbes().dump()));
    QTableWidget* table = probeTable(form);
    const auto cell = [table](int row, int column) { return table->item(row, column)->text(); };
    QCOMPARE(cell(0, kProbeType), QStringLiteral("prometheus"));
    QCOMPARE(cell(0, kProbeTarget), QStringLiteral("http://127.0.0.1:9100/metrics"));
    QCOMPARE(cell(0, kProbeMetrics),
             QString(QStringLiteral("node_load1, ") + QString::fromStdString(kCommaSelector)));
    QCOMPARE(cell(0, kProbeInterval), QStringLiteral("2000"));
    QCOMPARE(cell(0, kProbeVia), QStringLiteral("probe@127.0.0.1:2222"));
    QCOMPARE(cell(0, kProbeKey), QStringLiteral("/keys/a"));
    QCOMPARE(cell(1, kProbeType), QStringLiteral("process"));
    QCOMPARE(cell(1, kProbeProcess), QStringLiteral("4242"));
    QCOMPARE(cell(1, kProbeTop), QStringLiteral("3"));
    QCOMPARE(cell(1, kProbeVia), QStringLiteral("probe@127.0.0.1:2222"));
    for (int row = 0; row < 2; ++row)
        QCOMPARE(cell(row, kProbeMore), QString());

    table->item(0, kProbeMetrics)
        ->setText(QStringLiteral("up,node_load1 , ") + QString::fromStdString(kCommaSelector));
    table->item(0, kProbeInterval)->setText(QStringLiteral("500"));
    table->item(1, kProbeProcess)->setText(QStringLiteral("java"));
    table->item(1, kProbeTop)->setText(QStringLiteral("7"));
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    const nlohmann::json typed = form.json()["probes"];
    QCOMPARE(
        QString::fromStdString(typed[0]["metrics"].dump()),
        QString::fromStdString(nlohmann::json::array({"up", "node_load1", kCommaSelector}).dump()));
    QVERIFY(typed[0]["interval_ms"] == 500);
    QCOMPARE(QString::fromStdString(typed[1]["process"].dump()),
             QStringLiteral(R"({"match":"java","top":7})"));
    const ProbeSpec& prometheus = form.spec()->probes[0];
    QCOMPARE(prometheus.metrics.size(), size_t(3));
    QCOMPARE(prometheus.metrics[2], kCommaSelector);
    QCOMPARE(prometheus.interval_ms, 500);
    QCOMPARE(form.spec()->probes[1].match, std::string("java"));
    QCOMPARE(form.spec()->probes[1].top, 7);
}

// A selector Prometheus would refuse and a URL that is not http:// are the form's errors, in
// the words `perflab run` gives them (probe rows counted from 1), each on its own cell.
void SpecFormTest::badSelectorAndUrlAreMarkedInTheirCells() {
    SpecForm form;
    loadHot(form);
    nlohmann::json j = form.json();
    j["probes"] = prometheusAndProcessProbes();
    form.setJson(j);
    QTableWidget* table = probeTable(form);
    table->item(0, kProbeMetrics)->setText(QStringLiteral("node_load1, up{mode=idle}"));
    QVERIFY(!form.isValid());
    const QString selector =
        QStringLiteral(R"(probe 1, metrics[1]: bad selector "up{mode=idle}": )");
    QVERIFY2(form.errorText().contains(selector), qPrintable(form.errorText()));
    const SpecResult cli = parse_spec(form.json());
    QCOMPARE(cli.errors.size(), size_t(1));
    QCOMPARE(cli.errors[0].path, std::string("probes[0].metrics[1]"));
    QVERIFY(form.errorText().endsWith(QString::fromStdString(cli.errors[0].message)));
    QVERIFY(table->item(0, kProbeMetrics)->background() != QBrush());
    QVERIFY(table->item(0, kProbeMetrics)->toolTip().contains(selector));
    QVERIFY(table->item(0, kProbeTarget)->background() == QBrush());

    table->item(0, kProbeMetrics)->setText(QStringLiteral("node_load1"));
    table->item(0, kProbeTarget)->setText(QStringLiteral("127.0.0.1:9100/metrics"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.errorText().contains(
                 QStringLiteral(R"(probe 1, prometheus: expected an http:// address, got )"
                                R"("127.0.0.1:9100/metrics")")),
             qPrintable(form.errorText()));
    QVERIFY(table->item(0, kProbeTarget)->background() != QBrush());
    QVERIFY(table->item(0, kProbeMetrics)->background() == QBrush());

    table->item(0, kProbeTarget)->setText(QStringLiteral("http://127.0.0.1:9100/metrics"));
    table->item(1, kProbeTop)->setText(QStringLiteral("0"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.errorText().contains(QStringLiteral("probe 2, process.top: ")),
             qPrintable(form.errorText()));
    QVERIFY(table->item(1, kProbeTop)->background() != QBrush());
    QVERIFY(table->item(1, kProbeProcess)->background() == QBrush());
}

// The agents table keeps a spec's agents (a local one, a program path, stop on loss), and a
// saved host is added as an agent.
void SpecFormTest::agentsRoundTripAndSavedHostBecomesAnAgent() {
    SpecForm form;
    loadHot(form);
    nlohmann::json j = form.json();
    j["agents"] = {{{"host", "load@10.0.0.7:22"}, {"key", "/keys/a"}, {"perflab", "/opt/perflab"}},
                   {{"local", true}}};
    j["on_agent_loss"] = "stop";
    form.setJson(j);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    const RunSpec& spec = *form.spec();
    QCOMPARE(spec.agents.size(), size_t(2));
    QCOMPARE(spec.agents[0].host, std::string("load@10.0.0.7:22"));
    QCOMPARE(spec.agents[0].key, std::string("/keys/a"));
    QCOMPARE(spec.agents[0].program, std::string("/opt/perflab"));
    QVERIFY(spec.agents[1].local);
    QCOMPARE(spec.on_agent_loss, AgentLoss::stop);

    SavedHost host;
    host.name = "generator";
    host.target = "gen@127.0.0.1:2222";
    host.key_file = "/keys/id_ed25519";
    form.setSavedHosts({host});
    auto* button = form.findChild<QPushButton*>(QStringLiteral("savedAgents"));
    QVERIFY(button && button->isEnabled());
    button->menu()->actions().at(0)->trigger();
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(form.spec()->agents.size(), size_t(3));
    QCOMPARE(form.spec()->agents[2].host, host.target);
    QCOMPARE(form.spec()->agents[2].key, host.key_file);
    QCOMPARE(form.spec()->agents[2].program, std::string("perflab"));
    // Without agents the loss rule is not written: it would be an error.
    nlohmann::json none = form.json();
    none.erase("agents");
    form.setJson(none);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QVERIFY(!form.json().contains("on_agent_loss"));
    QVERIFY(form.spec()->agents.empty());
}

// At 1024×700 a spec wrong in its last table (a probe's target) shows its message at the
// top, and the form scrolls to the table: the user sees both without scrolling.
void SpecFormTest::validationIsInViewWithoutScrolling() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad-probe.json"));
    {
        QFile in(QStringLiteral(":/specs/cache-aside-hot.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        auto j = nlohmann::json::parse(in.readAll().toStdString());
        j["probes"] = {{{"local", true}}, {{"memcached", "127.0.0.1:0"}}};
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(j.dump()));
    }
    MainWindow window;
    window.resize(1024, 700);
    window.showView(MainWindow::View::setup);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    SpecForm* form = window.specForm();
    QString error;
    QVERIFY2(form->loadFile(path, &error), qPrintable(error));
    QVERIFY(!form->isValid());
    auto* message = form->findChild<QLabel*>(QStringLiteral("specErrors"));
    QVERIFY(message);
    QVERIFY2(message->text().contains(QStringLiteral("probe 2, ")), qPrintable(message->text()));
    QTRY_VERIFY(!message->visibleRegion().isEmpty());
    auto* probes = form->findChild<RowTable*>(QStringLiteral("probes"));
    QVERIFY(probes);
    QTRY_VERIFY(!probes->visibleRegion().isEmpty());
    QVERIFY(!form->startButton()->visibleRegion().isEmpty());
}

// Form → spec JSON → form gives the same JSON; the details show the selected target's keys
// and edit that target alone.
void SpecFormTest::targetWeightsBodiesAndChecksRoundTrip() {
    const nlohmann::json spec = httpSpec();
    const SpecResult parsed = parse_spec(spec);
    QVERIFY2(parsed, parsed.error_text().c_str());
    const std::string expected = to_json(*parsed.spec)["http"]["targets"].dump();
    SpecForm form;
    form.setJson(spec);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(QString::fromStdString(form.json()["http"]["targets"].dump()),
             QString::fromStdString(expected));
    QCOMPARE(form.spec()->http->targets[0].weight, 3u);
    SpecForm reopened;
    reopened.setJson(form.json());
    QCOMPARE(QString::fromStdString(reopened.json()["http"]["targets"].dump()),
             QString::fromStdString(expected));

    QCOMPARE(targetTable(form)->item(0, 2)->text(), QStringLiteral("3"));
    QCOMPARE(form.findChild<QLineEdit*>(QStringLiteral("target.expect.status"))->text(),
             QStringLiteral("200, 201"));
    targetTable(form)->setCurrentCell(1, 0);
    auto* equals = form.findChild<QLineEdit*>(QStringLiteral("target.expect.json.equals"));
    QCOMPARE(equals->text(), QStringLiteral("\"true\""));  // the text, not the boolean
    form.findChild<QLineEdit*>(QStringLiteral("target.expect.status"))
        ->setText(QStringLiteral("204"));
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(form.spec()->http->targets[1].expect->status, std::vector<int>{204});
    QCOMPARE(form.spec()->http->targets[0].expect->status, (std::vector<int>{200, 201}));
    QCOMPARE(form.spec()->http->targets[1].expect->json_equals,
             std::optional<std::string>("\"true\""));
}

// Request numbers of one target count 0, 1, 2; the random parts follow the run's seed.
void SpecFormTest::previewRendersThreeRequests() {
    nlohmann::json spec = httpSpec();
    spec["seed"] = 7;
    SpecForm form;
    form.setJson(spec);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    const QString text = previewText(form);
    for (int seq = 0; seq < 3; ++seq) {
        QVERIFY2(text.contains(QStringLiteral("POST /items/%1?u=").arg(seq)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("{\"id\": %1}").arg(seq)), qPrintable(text));
    }
    QVERIFY(!text.contains(QStringLiteral("/items/3")));
    QVERIFY(text.contains(QStringLiteral("Content-Type: application/json")));
    form.findChild<QLineEdit*>(QStringLiteral("seed"))->setText(QStringLiteral("8"));
    QVERIFY(previewText(form) != text);
    form.findChild<QLineEdit*>(QStringLiteral("seed"))->setText(QStringLiteral("7"));
    QCOMPARE(previewText(form), text);
    targetTable(form)->setCurrentCell(1, 0);
    QVERIFY2(previewText(form).contains(QStringLiteral("GET /health HTTP/1.1")),
             qPrintable(previewText(form)));
}

void SpecFormTest::badTemplateShowsItsErrorInThePreview() {
    SpecForm form;
    form.setJson(httpSpec());
    auto* body = form.findChild<QPlainTextEdit*>(QStringLiteral("target.body_template"));
    QVERIFY(body);
    body->setPlainText(QStringLiteral("{{nope}}"));
    QVERIFY(!form.isValid());
    // The summary and the preview say it alike, the target counted from 1.
    const QString prefix = QStringLiteral("target 1, body_template: ");
    const QStringList lines = form.errorText().split(QLatin1Char('\n'));
    const auto line = std::find_if(lines.begin(), lines.end(),
                                   [&](const QString& l) { return l.startsWith(prefix); });
    QVERIFY2(line != lines.end(), qPrintable(form.errorText()));
    QCOMPARE(previewText(form), *line);
    QVERIFY(!body->styleSheet().isEmpty());
    QCOMPARE(body->toolTip(), previewText(form));
}

// The details mark the field with the message, its target counted from 1 as the table shows.
void SpecFormTest::badExpectStatusIsMarked() {
    SpecForm form;
    form.setJson(httpSpec());
    targetTable(form)->setCurrentCell(1, 0);
    auto* status = form.findChild<QLineEdit*>(QStringLiteral("target.expect.status"));
    status->setText(QStringLiteral("200, 700"));
    QVERIFY(!form.isValid());
    QVERIFY(!form.startButton()->isEnabled());
    QVERIFY2(form.errorText().contains(QStringLiteral("target 2, expect.status: ")),
             qPrintable(form.errorText()));
    QVERIFY(!status->styleSheet().isEmpty());
    QVERIFY2(status->toolTip().startsWith(QStringLiteral("target 2, expect.status: ")),
             qPrintable(status->toolTip()));
    auto* label = form.findChild<QLabel*>(QStringLiteral("targetErrors"));
    QCOMPARE(label->text(), status->toolTip());
    QVERIFY(targetTable(form)->item(1, 1)->background() != QBrush());
    QVERIFY(targetTable(form)->item(0, 1)->background() == QBrush());
    // Another target's fields are not marked with it.
    targetTable(form)->setCurrentCell(0, 0);
    QVERIFY(status->styleSheet().isEmpty());
    targetTable(form)->setCurrentCell(1, 0);
    QVERIFY(!status->styleSheet().isEmpty());
    status->setText(QStringLiteral("200"));
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QVERIFY(status->toolTip().isEmpty());
}

// {{csv FILE COLUMN}}: the file loaded as the engine loads it, one row per request in order.
void SpecFormTest::previewReadsCsvRowsInOrder() {
    QTemporaryDir dir;
    const QString users = dir.filePath(QStringLiteral("users.csv"));
    QFile file(users);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("name,id\nann,1\nbob,2\ncyd,3\ndee,4\n");
    file.close();
    nlohmann::json spec = httpSpec();
    spec["http"]["targets"][1]["url"] =
        "http://127.0.0.1:8080/u/{{csv " + users.toStdString() + " name}}";
    SpecForm form;
    form.setJson(spec);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    targetTable(form)->setCurrentCell(1, 0);
    const QString text = previewText(form);
    const auto at = [&](const char* path) { return text.indexOf(QLatin1String(path)); };
    QVERIFY2(at("GET /u/ann ") >= 0 && at("GET /u/ann ") < at("GET /u/bob ") &&
                 at("GET /u/bob ") < at("GET /u/cyd "),
             qPrintable(text));
    QVERIFY(!text.contains(QStringLiteral("/u/dee")));
    QVERIFY(file.remove());
    targetTable(form)->item(1, 0)->setText(QStringLiteral("HEAD"));  // an edit re-renders
    QVERIFY2(previewText(form).startsWith(QStringLiteral("target 2, url: cannot read CSV file")),
             qPrintable(previewText(form)));
}

void SpecFormTest::badWeightCellIsMarked() {
    SpecForm form;
    form.setJson(httpSpec());
    targetTable(form)->item(1, 2)->setText(QStringLiteral("0"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.errorText().contains(QStringLiteral("target 2, weight: ")),
             qPrintable(form.errorText()));
    QVERIFY(targetTable(form)->item(1, 2)->background() != QBrush());
    QVERIFY(targetTable(form)->item(1, 1)->background() == QBrush());
    targetTable(form)->item(1, 2)->setText(QStringLiteral("5"));
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(form.spec()->http->targets[1].weight, 5u);
}

// The session table gives back the spec's steps; a step added in the table joins the spec.
void SpecFormTest::sessionRoundTripsAndPreviewsItsVariable() {
    const nlohmann::json spec = sessionSpec();
    const SpecResult parsed = parse_spec(spec);
    QVERIFY2(parsed, parsed.error_text().c_str());
    const std::string expected = to_json(*parsed.spec)["http"]["session"].dump();
    SpecForm form;
    form.setJson(spec);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(QString::fromStdString(form.json()["http"]["session"].dump()),
             QString::fromStdString(expected));
    QVERIFY(form.spec()->http->session == parsed.spec->http->session);
    SpecForm reopened;
    reopened.setJson(form.json());
    QCOMPARE(QString::fromStdString(reopened.json()["http"]["session"].dump()),
             QString::fromStdString(expected));

    QTableWidget* steps = sessionTable(form);
    QCOMPARE(steps->rowCount(), 3);
    QCOMPARE(steps->item(1, 1)->text(), QStringLiteral("500"));
    QCOMPARE(steps->item(1, 2)->text(), QStringLiteral("1500"));
    QCOMPARE(steps->item(2, 4)->text(), QStringLiteral("header"));
    QCOMPARE(steps->item(2, 5)->text(), QStringLiteral("ETag"));
    form.findChild<RowTable*>(QStringLiteral("http.session"))
        ->addRow({QStringLiteral("0"), QStringLiteral("100"), {}, {}, {}, {}});
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(form.spec()->http->session.size(), size_t(4));
    QCOMPARE(form.spec()->http->session[3].think_min_ms, 100u);
    QCOMPARE(form.spec()->http->session[3].think_max_ms, 100u);

    // A captured value is not known before the run: the preview names it.
    targetTable(form)->setCurrentCell(1, 0);
    QVERIFY2(previewText(form).contains(QStringLiteral("Authorization: Bearer ‹token›")),
             qPrintable(previewText(form)));
}

void SpecFormTest::badSessionStepIsMarked() {
    SpecForm form;
    form.setJson(sessionSpec());
    QTableWidget* steps = sessionTable(form);
    steps->item(1, 0)->setText(QStringLiteral("7"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.errorText().contains(QStringLiteral("session step 2, target: no target 7")),
             qPrintable(form.errorText()));
    QVERIFY(steps->item(1, 0)->background() != QBrush());
    QVERIFY(steps->item(0, 0)->background() == QBrush());
    steps->item(1, 0)->setText(QStringLiteral("1"));
    // A phase with a rate has no place for users.
    form.findChild<RowTable*>(QStringLiteral("phases"))
        ->table()
        ->item(0, 2)
        ->setText(QStringLiteral("50"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.errorText().contains(QStringLiteral("phase 1, rate: a session's users")),
             qPrintable(form.errorText()));
}

// "cache.value_size: min 500 > max 100" names no field of its own: both fields it is about
// are marked, and unmarked once it is fixed.
void SpecFormTest::minAboveMaxMarksBothFields() {
    SpecForm form;
    loadHot(form);
    auto* min = form.findChild<QLineEdit*>(QStringLiteral("cache.value_size.min"));
    auto* max = form.findChild<QLineEdit*>(QStringLiteral("cache.value_size.max"));
    QVERIFY(min && max);
    min->setText(QStringLiteral("500"));
    max->setText(QStringLiteral("100"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.errorText().contains(QStringLiteral("min 500 > max 100")),
             qPrintable(form.errorText()));
    for (QLineEdit* edit : {min, max}) {
        QVERIFY2(!edit->styleSheet().isEmpty(), qPrintable(edit->objectName()));
        QVERIFY2(edit->toolTip().contains(QStringLiteral("min 500 > max 100")),
                 qPrintable(edit->toolTip()));
    }
    QVERIFY(form.findChild<QComboBox*>(QStringLiteral("cache.value_size.bytes"))
                ->styleSheet()
                .isEmpty());
    max->setText(QStringLiteral("1000"));
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QVERIFY(min->styleSheet().isEmpty() && max->styleSheet().isEmpty());
}

// At 1024×700: no error, then three, then none again; the summary above the form stays as
// high and the fields stay where they were, so a value typed goes where it was aimed.
void SpecFormTest::summaryKeepsItsHeight() {
    MainWindow window;
    window.resize(1024, 700);
    window.showView(MainWindow::View::setup);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    SpecForm* form = window.specForm();
    loadHot(*form);
    auto* summary = form->findChild<QFrame*>(QStringLiteral("specErrorBox"));
    QVERIFY(summary);
    const QStringList paths = {QStringLiteral("tick_ms"), QStringLiteral("cache.keys.count"),
                               QStringLiteral("cache.servers")};
    const auto settle = [] {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
    };
    const auto where = [&] {
        QList<QRect> places{summary->geometry()};
        for (const QString& path : paths) {
            QWidget* field = form->field(path.toStdString());
            places << QRect(field->mapTo(form, QPoint(0, 0)), field->size());
        }
        return places;
    };
    settle();
    QVERIFY(summary->isVisible());
    const QList<QRect> valid = where();
    QVERIFY(valid.front().height() > 0);
    const QStringList bad = {QStringLiteral("-5"), QStringLiteral("many"),
                             QStringLiteral("nohost")};
    QList<QString> good;
    for (int i = 0; i < paths.size(); ++i) {
        auto* edit = qobject_cast<QLineEdit*>(form->field(paths[i].toStdString()));
        QVERIFY(edit);
        good << edit->text();
        edit->setText(bad[i]);
        settle();
        QCOMPARE(form->errorText().split(QLatin1Char('\n')).size(), i + 1);
        QCOMPARE(where(), valid);
    }
    // An item of a comma-separated list is counted from 1 as well.
    QVERIFY2(form->errorText().contains(QStringLiteral("cache.servers, item 1: ")),
             qPrintable(form->errorText()));
    for (int i = 0; i < paths.size(); ++i)
        qobject_cast<QLineEdit*>(form->field(paths[i].toStdString()))->setText(good[i]);
    settle();
    QVERIFY2(form->isValid(), qPrintable(form->errorText()));
    QCOMPARE(where(), valid);
}

// A Redis connection's user, password, database, RESP version and TLS in fields of their own:
// a spec goes in and comes back out as it was; a memcached run keeps no "redis"; TLS goes with
// its box. This test's source stands in for the PEM files the spec names (they are read).
void SpecFormTest::redisConnectionAndTlsFieldsRoundTrip() {
    const std::string file = __FILE__;
    const nlohmann::json redis = {{"hello", 2},
                                  {"user", "app"},
                                  {"password", "${REDIS_PASSWORD}"},
                                  {"db", 3},
                                  {"tls",
                                   {{"ca", file},
                                    {"cert", file},
                                    {"key", file},
                                    {"server_name", "cache.internal"},
                                    {"verify", false}}}};
    const nlohmann::json spec = {
        {"kind", "cache"},
        {"phases", {{{"duration_s", 10}, {"concurrency", 2}}}},
        {"cache", {{"servers", {"127.0.0.1:6380"}}, {"protocol", "redis"}, {"redis", redis}}}};
    SpecForm form;
    form.setJson(spec);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(QString::fromStdString(form.json()["cache"]["redis"].dump()),
             QString::fromStdString(redis.dump()));
    auto* tls = form.findChild<QCheckBox*>(QStringLiteral("cache.redis.tls"));
    auto* verify = form.findChild<QCheckBox*>(QStringLiteral("cache.redis.tls.verify"));
    QVERIFY(tls && verify);
    QVERIFY(tls->isChecked());
    QVERIFY(!verify->isChecked());

    // TLS with nothing else: the system's CAs, verified.
    verify->setChecked(true);
    for (const char* field : {"cache.redis.tls.ca", "cache.redis.tls.cert", "cache.redis.tls.key",
                              "cache.redis.tls.server_name"})
        form.findChild<QLineEdit*>(QString::fromLatin1(field))->clear();
    QCOMPARE(QString::fromStdString(form.json()["cache"]["redis"]["tls"].dump()),
             QStringLiteral("true"));
    QVERIFY(form.spec()->cache->redis.tls);
    tls->setChecked(false);
    QVERIFY(!form.json()["cache"]["redis"].contains("tls"));
    QVERIFY(!form.spec()->cache->redis.tls);

    // A TLS file that cannot be read is marked on its field.
    tls->setChecked(true);
    auto* ca = form.findChild<QLineEdit*>(QStringLiteral("cache.redis.tls.ca"));
    ca->setText(QStringLiteral("/no/such/ca.crt"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.errorText().contains(QStringLiteral("cannot read \"/no/such/ca.crt\"")),
             qPrintable(form.errorText()));
    QVERIFY(!ca->styleSheet().isEmpty());

    // memcached: none of it.
    nlohmann::json plain = spec;
    plain["cache"]["protocol"] = "meta";
    plain["cache"].erase("redis");
    form.setJson(plain);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QVERIFY(!form.json()["cache"].contains("redis"));
}

int run_spec_form_test(int argc, char** argv) {
    SpecFormTest t;
    return QTest::qExec(&t, argc, argv);
}

// The HTTP/2 switch and its streams per connection are edited, validated and kept.
void SpecFormTest::http2AndMaxStreamsRoundTrip() {
    nlohmann::json spec = httpSpec();
    spec["http"]["http2"] = true;
    spec["http"]["max_streams"] = 50;
    SpecForm form;
    form.setJson(spec);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    auto* http2 = form.findChild<QCheckBox*>(QStringLiteral("http.http2"));
    auto* streams = form.findChild<QLineEdit*>(QStringLiteral("http.max_streams"));
    QVERIFY(http2 && streams);
    QVERIFY(http2->isChecked());
    QCOMPARE(streams->text(), QStringLiteral("50"));
    QVERIFY(form.spec()->http->http2);
    QCOMPARE(form.spec()->http->max_streams, 50);

    streams->setText(QStringLiteral("0"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.errorText().contains(QStringLiteral("http.max_streams")),
             qPrintable(form.errorText()));
    QVERIFY(!streams->toolTip().isEmpty());
    streams->setText(QStringLiteral("8"));
    http2->setChecked(false);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QVERIFY(!form.spec()->http->http2);
    http2->setChecked(true);
    SpecForm reopened;
    reopened.setJson(form.json());
    QVERIFY(reopened.findChild<QCheckBox*>(QStringLiteral("http.http2"))->isChecked());
    QCOMPARE(reopened.spec()->http->max_streams, 8);
}

// A cache phase's own workload (#33): kept whole when a spec is opened and saved, labelled in
// the schedule's preview, and a bad key in it marked, naming it.
void SpecFormTest::phaseWorkloadsRoundTrip() {
    SpecForm form;
    loadHot(form);
    nlohmann::json j = form.json();
    j["phases"] = {{{"duration_s", 10}, {"concurrency", 4}},
                   {{"duration_s", 10},
                    {"concurrency", 4},
                    {"workload", "get-only"},
                    {"keys", {{"count", 10000000000ull}, {"prefix", "cold:"}}},
                    {"value_size", {{"min", 100}, {"max", 200}}}}};
    form.setJson(j);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(QString::fromStdString(form.json()["phases"].dump()),
             QString::fromStdString(j["phases"].dump()));
    QVERIFY(!form.spec()->phases[0].cache);
    QVERIFY(form.spec()->phases[1].cache);
    QCOMPARE(form.spec()->phases[1].cache->keys.count, 10000000000ull);
    QCOMPARE(form.spec()->phases[1].cache->workload, CacheWorkload::get_only);

    auto* preview = form.findChild<PhasePreview*>();
    QVERIFY(preview);
    int labels = 0;
    for (int i = 0; i < preview->plot()->itemCount(); ++i)
        labels += preview->plot()->item(i)->objectName() == QLatin1String("workload");
    QCOMPARE(labels, 1);

    auto* table = form.findChild<RowTable*>(QStringLiteral("phases"));
    QVERIFY(table);
    table->table()
        ->item(1, kPhaseWorkloadColumn)
        ->setText(QStringLiteral(R"({"keys": {"cnt": 5}})"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.errorText().contains(QStringLiteral("cnt")), qPrintable(form.errorText()));
}

// The commands table gives back the spec's commands, which replace the workload; the preview
// shows each command's share and one op of it; a bad weight is marked in its cell, a row
// added joins the spec, and a saved spec reopens with the table as it was.
void SpecFormTest::redisCommandsRoundTripAndPreview() {
    const nlohmann::json commands = {
        {{"cmd", "HSET {{key}} f {{value}}"}, {"weight", 3}},
        {{"cmd", "ZINCRBY board 1 m:{{uniform 7 7}}"}, {"weight", 1}, {"name", "score"}}};
    const nlohmann::json spec = {{"kind", "cache"},
                                 {"phases", {{{"duration_s", 10}, {"concurrency", 2}}}},
                                 {"cache",
                                  {{"servers", {"127.0.0.1:6379"}},
                                   {"protocol", "redis"},
                                   {"commands", commands},
                                   {"keys", {{"count", 100}, {"prefix", "u:"}}},
                                   {"value_size", {{"min", 500}, {"max", 500}}}}}};
    SpecForm form;
    form.setJson(spec);
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(QString::fromStdString(form.json()["cache"]["commands"].dump()),
             QString::fromStdString(commands.dump()));
    QVERIFY(!form.json()["cache"].contains("workload"));
    QCOMPARE(form.spec()->cache->commands.size(), size_t(2));
    QCOMPARE(form.spec()->cache->commands[1].name, std::string("score"));

    const QString preview =
        form.findChild<QPlainTextEdit*>(QStringLiteral("commandPreview"))->toPlainText();
    QVERIFY2(preview.contains(QStringLiteral("hset (75.0%): HSET u:")), qPrintable(preview));
    QVERIFY2(preview.contains(QStringLiteral(" f ‹500 B›")), qPrintable(preview));
    QVERIFY2(preview.contains(QStringLiteral("score (25.0%): ZINCRBY board 1 m:7")),
             qPrintable(preview));

    QTableWidget* table = form.findChild<RowTable*>(QStringLiteral("cache.commands"))->table();
    table->item(1, 1)->setText(QStringLiteral("0"));
    QVERIFY(!form.isValid());
    QVERIFY2(form.errorText().contains(QStringLiteral("command 2, weight: ")),
             qPrintable(form.errorText()));
    QVERIFY(table->item(1, 1)->background() != QBrush());
    QVERIFY(table->item(1, 0)->background() == QBrush());
    table->item(1, 1)->setText(QStringLiteral("1"));
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));

    form.findChild<RowTable*>(QStringLiteral("cache.commands"))
        ->addRow({QStringLiteral("INCR hits"), {}, {}});
    QVERIFY2(form.isValid(), qPrintable(form.errorText()));
    QCOMPARE(form.spec()->cache->commands.size(), size_t(3));
    QCOMPARE(form.spec()->cache->commands[2].cmd, std::string("INCR hits"));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("spec.json"));
    QString error;
    QVERIFY2(form.saveFile(path, &error), qPrintable(error));
    SpecForm reopened;
    QVERIFY2(reopened.loadFile(path, &error), qPrintable(error));
    QVERIFY2(reopened.isValid(), qPrintable(reopened.errorText()));
    QVERIFY(reopened.spec()->cache->commands == form.spec()->cache->commands);
    QTableWidget* again = reopened.findChild<RowTable*>(QStringLiteral("cache.commands"))->table();
    QCOMPARE(again->rowCount(), 3);
    QCOMPARE(again->item(1, 2)->text(), QStringLiteral("score"));
    QCOMPARE(again->item(2, 0)->text(), QStringLiteral("INCR hits"));
}

#include "spec_form_test.moc"
