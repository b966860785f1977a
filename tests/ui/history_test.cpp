// SPDX-License-Identifier: MIT
// The History tab against runs the real CLI stored from a real memcached: the list and its
// figures, the filters, a run opened in the live view's charts, notes and tags written to the
// store, delete after confirmation, and a report exported with its chart images.
#include <qcustomplot.h>

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QUrl>
#include <ctime>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "history_view.h"
#include "http_test_server.h"
#include "memcached_server.h"
#include "model/format.h"
#include "pdf_text.h"
#include "process.h"
#include "run_list_model.h"
#include "run_notes_editor.h"
#include "run_store.h"
#include "store_writer.h"
#include "stored_run.h"
#include "stored_run_view.h"
#include "time_chart.h"
#include "ui_tests.h"
#include "wall_time.h"

using namespace perflab;

namespace {

constexpr int kWaitMs = 20000;

std::string spec_text(const std::string& server, const std::string& name,
                      const std::vector<std::string>& tags) {
    const nlohmann::json j = {{"name", name},
                              {"kind", "cache"},
                              {"tick_ms", 250},
                              {"tags", tags},
                              {"phases", {{{"duration_s", 2.0}, {"concurrency", 2}}}},
                              {"cache",
                               {{"servers", {server}},
                                {"keys", {{"count", 1000}}},
                                {"value_size", {{"min", 64}, {"max", 256}}}}}};
    return j.dump();
}

// Tick i of a stored run written by hand: a second of 100 gets, from 200 to 299 µs.
IntervalSample hundred_gets(int i) {
    IntervalSample s;
    s.t_ms = (i + 1) * 1000;
    s.interval_ms = 1000;
    s.ops["get"].count = 100;
    for (int k = 0; k < 100; ++k)
        s.ops["get"].latency.record(200 + k);
    return s;
}

// A stored run of three such ticks written by hand as the controller writes one: `tick` makes
// tick i what the test needs and writes it (and any probe samples) to the writer, `finish`
// the summary. What the writer said went wrong: empty when nothing did.
std::string write_three_ticks(const std::string& db, const RunSpec& spec,
                              const std::function<void(int, IntervalSample&, StoreWriter&)>& tick,
                              const std::function<void(RunSummary&)>& finish = {}) {
    HardwareProfile host;
    host.hostname = "loadgen";
    StoreWriter writer(db, spec, host);
    SummaryBuilder builder(RunKind::cache);
    writer.on_start(spec);
    for (int i = 0; i < 3; ++i) {
        IntervalSample s = hundred_gets(i);
        tick(i, s, writer);
        builder.add(s);
    }
    writer.on_phase_end(builder.phase(0));
    RunSummary summary = builder.finish(RunStatus::completed);
    if (finish) finish(summary);
    writer.on_end(summary);
    return writer.finish();
}

// A history whose delete confirmation answers as the test says, counting the questions.
class ConfirmingHistory : public HistoryView {
  public:
    using HistoryView::HistoryView;
    bool answer = false;
    int asked = 0;
    QString question;

  protected:
    bool confirmDelete(const QString& q) override {
        ++asked;
        question = q;
        return answer;
    }
};

QCPGraph* graph(const TimeChart* chart, const QString& name) {
    for (int i = 0; i < chart->plot()->graphCount(); ++i)
        if (chart->plot()->graph(i)->name() == name) return chart->plot()->graph(i);
    return nullptr;
}

QString cell(const HistoryView& view, int row, int column) {
    return view.table()->model()->index(row, column).data().toString();
}

QStringList names(const HistoryView& view) {
    QStringList out;
    for (int row = 0; row < view.table()->model()->rowCount(); ++row)
        out << cell(view, row, RunListModel::Name);
    return out;
}

void select(HistoryView& view, const QStringList& wanted) {
    view.table()->clearSelection();
    for (int row = 0; row < view.table()->model()->rowCount(); ++row)
        if (wanted.contains(cell(view, row, RunListModel::Name)))
            view.table()->selectionModel()->select(
                view.table()->model()->index(row, 0),
                QItemSelectionModel::Select | QItemSelectionModel::Rows);
}

// The stored ticks the timeline draws: a phase's drain (replies after its end, marked as
// such; there is one when the machine is slow enough to leave replies in flight) is no tick.
int ticks_with_time(const std::vector<IntervalSample>& samples) {
    int n = 0;
    for (const auto& s : samples)
        n += s.interval_ms > 0 && !s.drain;
    return n;
}

// The image references of a report; kept out of macros, which moc cannot read raw strings in.
QString markdown_image() {
    return QString::fromLatin1("!\\[[^\\]]*\\]\\(([^)]+)\\)");
}

QString html_image() {
    return QString::fromLatin1("<img src=\"([^\"]+)\"");
}

QByteArray read(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class HistoryTest : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase();
    void listsStoredRunsWithTheirFigures();
    void filtersNarrowTheList();
    void compareNeedsTwoRuns();
    void openedRunFillsChartsOnePointPerTick();
    void notesAndTagsLandInTheStore();
    void exportWritesReportWithChartImagesAndCsv();
    void deleteAsksFirstThenRemoves();
    void httpRunShowsTheFiguresShowPrints();
    void baselineIsMarkedAndComparedWith();
    void startTimesShowLocalTimeBesideUtc();
    void nmonCaptureBecomesAHostsPanels();
    void jmeterTransactionsHaveTheirOwnPanels();
    void storedProbesHavePanelsAndHotThreads();
    void storedClusterRunTellsEachNode();

  private:
    int64_t idOf(const std::string& name);
    bool waitForList(HistoryView& view);

    std::unique_ptr<test::MemcachedServer> server_;
    std::unique_ptr<test::TempDir> dir_;
    std::string db_;
};

void HistoryTest::initTestCase() {
    server_ = std::make_unique<test::MemcachedServer>();
    dir_ = std::make_unique<test::TempDir>();
    db_ = dir_->file("runs.db");
    const std::vector<std::pair<std::string, std::vector<std::string>>> runs = {
        {"alpha", {"smoke"}}, {"beta", {"smoke", "baseline"}}, {"gamma", {}}};
    for (const auto& [name, tags] : runs) {
        dir_->write(name + ".json", spec_text(server_->endpoint(), name, tags));
        const test::Output o =
            test::run({PERFLAB_BINARY, "run", dir_->file(name + ".json"), "--db", db_, "-q"});
        QVERIFY2(o.code == 0, o.err.c_str());
    }
}

int64_t HistoryTest::idOf(const std::string& name) {
    for (const auto& run : RunStore(db_, Access::read).list())
        if (run.name == name) return run.id;
    return 0;
}

bool HistoryTest::waitForList(HistoryView& view) {
    QSignalSpy refreshed(&view, &HistoryView::refreshed);
    return refreshed.wait(kWaitMs);
}

void HistoryTest::listsStoredRunsWithTheirFigures() {
    HistoryView view(db_);
    QAbstractItemModelTester tester(view.model());
    QVERIFY(waitForList(view));
    QCOMPARE(names(view), (QStringList{"gamma", "beta", "alpha"}));  // newest first
    const auto stored = RunStore(db_, Access::read).list();
    QCOMPARE(int(stored.size()), 3);
    for (int row = 0; row < 3; ++row) {
        const RunInfo& run = stored[size_t(row)];
        QVERIFY(run.figures.throughput > 0);
        QCOMPARE(cell(view, row, RunListModel::Id), QString::number(run.id));
        QCOMPARE(cell(view, row, RunListModel::Kind), QStringLiteral("cache"));
        QCOMPARE(cell(view, row, RunListModel::Status), QStringLiteral("completed"));
        QCOMPARE(cell(view, row, RunListModel::Throughput),
                 QStringLiteral("%1/s").arg(run.figures.throughput, 0, 'f', 0));
        QCOMPARE(cell(view, row, RunListModel::P99),
                 QString::fromStdString(format_latency_us(run.figures.p99_us)));
        QCOMPARE(cell(view, row, RunListModel::HitRate),
                 QStringLiteral("%1%").arg(run.figures.hit_rate * 100, 0, 'f', 2));
        QCOMPARE(cell(view, row, RunListModel::Success),
                 QStringLiteral("%1%").arg(run.figures.success * 100, 0, 'f', 2));
        QCOMPARE(cell(view, row, RunListModel::Errors), QString::number(run.figures.errors));
        QVERIFY(cell(view, row, RunListModel::Duration).endsWith(QStringLiteral(" s")));
    }
    QCOMPARE(cell(view, 1, RunListModel::Tags), QStringLiteral("baseline, smoke"));
}

void HistoryTest::filtersNarrowTheList() {
    HistoryView view(db_);
    QVERIFY(waitForList(view));
    QSignalSpy refreshed(&view, &HistoryView::refreshed);
    view.nameFilter()->setText(QStringLiteral("ALP"));  // a substring, any case
    QVERIFY(refreshed.wait(kWaitMs));
    QCOMPARE(names(view), QStringList{"alpha"});

    view.nameFilter()->clear();
    QVERIFY(refreshed.wait(kWaitMs));
    QCOMPARE(view.model()->rowCount(), 3);
    const int baseline = view.tagFilter()->findData(QStringLiteral("baseline"));
    QVERIFY(baseline > 0);
    view.tagFilter()->setCurrentIndex(baseline);
    QVERIFY(refreshed.wait(kWaitMs));
    QCOMPARE(names(view), QStringList{"beta"});
    view.tagFilter()->setCurrentIndex(view.tagFilter()->findData(QStringLiteral("smoke")));
    QVERIFY(refreshed.wait(kWaitMs));
    QCOMPARE(names(view), (QStringList{"beta", "alpha"}));

    view.kindFilter()->setCurrentIndex(view.kindFilter()->findData(QStringLiteral("http")));
    QVERIFY(refreshed.wait(kWaitMs));
    QCOMPARE(view.model()->rowCount(), 0);
    view.kindFilter()->setCurrentIndex(view.kindFilter()->findData(QStringLiteral("cache")));
    QVERIFY(refreshed.wait(kWaitMs));
    QCOMPARE(view.model()->rowCount(), 2);
    const RunFilter f = view.filter();
    QCOMPARE(f.kind, std::string("cache"));
    QCOMPARE(f.tag, std::string("smoke"));
    QCOMPARE(int(RunStore(db_, Access::read).list(f).size()), view.model()->rowCount());
}

void HistoryTest::compareNeedsTwoRuns() {
    HistoryView view(db_);
    QVERIFY(waitForList(view));
    QSignalSpy compare(&view, &HistoryView::compareRequested);
    select(view, {QStringLiteral("alpha")});
    QVERIFY(!view.compareButton()->isEnabled());
    QVERIFY(view.openButton()->isEnabled());
    select(view, {QStringLiteral("alpha"), QStringLiteral("beta")});
    QVERIFY(view.compareButton()->isEnabled());
    QVERIFY(!view.openButton()->isEnabled());
    QTest::mouseClick(view.compareButton(), Qt::LeftButton);
    QCOMPARE(compare.count(), 1);
    QCOMPARE(compare.at(0).at(0).value<QList<qint64>>(),
             (QList<qint64>{idOf("beta"), idOf("alpha")}));
}

void HistoryTest::openedRunFillsChartsOnePointPerTick() {
    HistoryView view(db_);
    QVERIFY(waitForList(view));
    select(view, {QStringLiteral("alpha")});
    QSignalSpy loaded(view.runView(), &StoredRunView::runLoaded);
    QTest::mouseClick(view.openButton(), Qt::LeftButton);
    QVERIFY(view.showingRun());
    QVERIFY(loaded.wait(kWaitMs));
    const int64_t id = idOf("alpha");
    QCOMPARE(loaded.at(0).at(0).toLongLong(), id);
    const int ticks = ticks_with_time(RunStore(db_, Access::read).samples(id));
    QVERIFY2(ticks >= 6, qPrintable(QString::number(ticks)));
    QCOMPARE(view.runView()->ticks(), ticks);
    for (const char* name : {"get", "p99", "hit rate", "errors/s"}) {
        QCPGraph* g = graph(view.runView()->chart(), QString::fromLatin1(name));
        QVERIFY2(g, name);
        QCOMPARE(g->dataCount(), ticks);
    }
    QVERIFY(view.runView()->chart()->markerCount() >= 1);  // the phase's start
    QVERIFY(view.runView()->reportText().contains(QStringLiteral("alpha")));
    QVERIFY(view.runView()->reportText().contains(QStringLiteral("hit")));
    emit view.runView()->backRequested();
    QVERIFY(!view.showingRun());
}

void HistoryTest::notesAndTagsLandInTheStore() {
    HistoryView view(db_);
    QVERIFY(waitForList(view));
    select(view, {QStringLiteral("beta")});
    RunNotesEditor* editor = view.notesEditor();
    QCOMPARE(editor->runId(), idOf("beta"));
    QCOMPARE(editor->tagsEdit()->text(), QStringLiteral("baseline, smoke"));
    editor->notesEdit()->setPlainText(QStringLiteral("memcached -m 64\nsecond client idle"));
    editor->tagsEdit()->setText(QStringLiteral("baseline tuned,  tuned"));
    QSignalSpy changed(&view, &HistoryView::runsChanged);
    QSignalSpy refreshed(&view, &HistoryView::refreshed);
    QTest::mouseClick(editor->saveButton(), Qt::LeftButton);
    QVERIFY(changed.wait(kWaitMs));
    const RunInfo stored = RunStore(db_, Access::read).info(idOf("beta"));
    QCOMPARE(stored.notes, std::string("memcached -m 64\nsecond client idle"));
    QCOMPARE(stored.tags, (std::vector<std::string>{"baseline", "tuned"}));
    QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() >= 1, kWaitMs);
    QCOMPARE(cell(view, 1, RunListModel::Tags), QStringLiteral("baseline, tuned"));
    QCOMPARE(editor->tagsEdit()->text(), QStringLiteral("baseline, tuned"));  // as stored
    QVERIFY(view.tagFilter()->findData(QStringLiteral("tuned")) > 0);
}

void HistoryTest::exportWritesReportWithChartImagesAndCsv() {
    StoredRunView view(db_);
    QSignalSpy loaded(&view, &StoredRunView::runLoaded);
    const int64_t id = idOf("alpha");
    view.open(id);
    QVERIFY(loaded.wait(kWaitMs));
    const QString dir = QString::fromStdString(dir_->path());
    const struct {
        QString file;
        QRegularExpression image;
    } formats[] = {{QStringLiteral("/report.md"), QRegularExpression(markdown_image())},
                   {QStringLiteral("/report.html"), QRegularExpression(html_image())}};
    for (const auto& format : formats) {
        QString error;
        QVERIFY2(view.exportReport(dir + format.file, &error), qPrintable(error));
        const QString text = QString::fromUtf8(read(dir + format.file));
        QVERIFY(text.contains(QStringLiteral("alpha")));
        // The spec in full: what reproduces the run.
        QVERIFY(text.contains(QStringLiteral("Spec</h2>")) ||
                text.contains(QStringLiteral("## Spec")));
        QVERIFY(text.contains(QStringLiteral("\"phases\"")) ||
                text.contains(QStringLiteral("&quot;phases&quot;")));
        int images = 0;
        for (auto it = format.image.globalMatch(text); it.hasNext(); ++images) {
            const QString source = it.next().captured(1);
            // HTML is one file, its charts inline; Markdown's sit in a folder beside it.
            const QString inline_png = QStringLiteral("data:image/png;base64,");
            QCOMPARE(source.startsWith(inline_png), format.file.endsWith(QLatin1String(".html")));
            const QString image =
                dir + QLatin1Char('/') + QUrl::fromPercentEncoding(source.toUtf8());
            const QByteArray png =
                source.startsWith(inline_png)
                    ? QByteArray::fromBase64(source.mid(inline_png.size()).toLatin1())
                    : read(image);
            QVERIFY2(png.size() > 1000, qPrintable(image));
            QVERIFY(png.startsWith("\x89PNG\r\n\x1a\n"));
        }
        QVERIFY2(images >= 1, qPrintable(text));
    }
    QString error;
    // PDF: a document titled with the run, its charts drawn in as vector graphics, a panel a
    // block headed with the panel's title (not one raster image of them all).
    QVERIFY2(view.exportReport(dir + QStringLiteral("/report.pdf"), &error), qPrintable(error));
    const QByteArray pdf = read(dir + QStringLiteral("/report.pdf"));
    QVERIFY(pdf.startsWith("%PDF-"));
    QVERIFY2(pdf.size() > 20000, qPrintable(QString::number(pdf.size())));
    QVERIFY(pdf.contains("/Title"));
    const QString pdfText = test::pdf_text(dir + QStringLiteral("/report.pdf"));
    for (int i = 0; i < view.chart()->panelCount(); ++i)
        QVERIFY2(pdfText.contains(view.chart()->panelTitle(i) + QStringLiteral(" — ")),
                 qPrintable(view.chart()->panelTitle(i)));
    QVERIFY(test::pdf_images(dir + QStringLiteral("/report.pdf")).isEmpty());
    QVERIFY(!view.exportReport(dir + QStringLiteral("/report.txt"), &error));
    QVERIFY2(error.contains(QStringLiteral("txt")), qPrintable(error));

    QVERIFY2(view.exportCsv(dir + QStringLiteral("/ticks.csv"), &error), qPrintable(error));
    const QList<QByteArray> lines = read(dir + QStringLiteral("/ticks.csv")).trimmed().split('\n');
    const auto samples = RunStore(db_, Access::read).samples(id);
    QVERIFY(samples.size() >= 6);
    QCOMPARE(lines.size(), qsizetype(samples.size()) + 1);
    QVERIFY(lines.front().startsWith("t_ms,"));
    QCOMPARE(lines.at(1).split(',').front().toLongLong(), samples.front().t_ms);

    QVERIFY2(view.exportHlog(dir + QStringLiteral("/run.hlog"), &error), qPrintable(error));
    const QByteArray hlog = read(dir + QStringLiteral("/run.hlog"));
    QVERIFY(hlog.startsWith("#[Logged with PerfLab"));
    QCOMPARE(hlog.count("\nTag=get,"), qsizetype(samples.size()));
}

// An HTTP run with 500s: the table's throughput (successful per second) and success are what
// `show --json` says of the run, and the opened run reports vegeta's figures, no hit rate.
void HistoryTest::httpRunShowsTheFiguresShowPrints() {
    test::HttpTestServer server;
    test::TempDir dir;
    const std::string db = dir.file("http.db");
    const nlohmann::json spec = {{"name", "http"},
                                 {"kind", "http"},
                                 {"tick_ms", 250},
                                 {"phases", {{{"rate", 200}, {"duration_s", 1.5}}}},
                                 {"http", {{"targets", {{{"url", server.url("/")}}}}}}};
    dir.write("spec.json", spec.dump());
    test::Process run({PERFLAB_BINARY, "run", dir.file("spec.json"), "--db", db, "-q"});
    QVERIFY(test::wait_until([&] { return server.requests() >= 100; }));
    server.set_mode(test::HttpTestServer::Mode::error_500);
    QCOMPARE(run.wait(), 0);
    const test::Output shown = test::run({PERFLAB_BINARY, "show", "1", "--db", db, "--json"});
    QVERIFY2(shown.code == 0, shown.err.c_str());
    const auto summary = nlohmann::json::parse(shown.out)["summary"];
    const double success = summary["success"].get<double>();
    QVERIFY2(success > 0 && success < 1, shown.out.c_str());

    HistoryView view(db);
    QVERIFY(waitForList(view));
    QCOMPARE(view.model()->rowCount(), 1);
    QCOMPARE(cell(view, 0, RunListModel::Throughput),
             QStringLiteral("%1/s").arg(summary["throughput"].get<double>(), 0, 'f', 0));
    QCOMPARE(cell(view, 0, RunListModel::Success),
             QStringLiteral("%1%").arg(success * 100, 0, 'f', 2));
    QCOMPARE(cell(view, 0, RunListModel::HitRate), QString());

    select(view, {QStringLiteral("http")});
    QSignalSpy loaded(view.runView(), &StoredRunView::runLoaded);
    QTest::mouseClick(view.openButton(), Qt::LeftButton);
    QVERIFY(loaded.wait(kWaitMs));
    const QString report = view.runView()->reportText();
    QVERIFY2(report.contains(QStringLiteral("%1%").arg(success * 100, 0, 'f', 2)),
             qPrintable(report));
    QVERIFY2(!report.contains(QStringLiteral("hit"), Qt::CaseInsensitive), qPrintable(report));
    // A line per status code the run saw, every tick: the 500s begin where the server
    // turned, at 0 before.
    const auto& codes = summary["status_codes"];
    QCOMPARE(int(codes.size()), 2);
    const TimeChart* chart = view.runView()->chart();
    QCPGraph* ok = graph(chart, QStringLiteral("200"));
    QCPGraph* failed = graph(chart, QStringLiteral("500"));
    QVERIFY(ok && failed);
    QCOMPARE(ok->dataCount(), view.runView()->ticks());
    QCOMPARE(failed->dataCount(), view.runView()->ticks());
    QVERIFY(ok->data()->at(0)->value > 0);
    QCOMPARE(failed->data()->at(0)->value, 0.0);
    QVERIFY(failed->data()->at(failed->dataCount() - 1)->value > 0);
}

void HistoryTest::deleteAsksFirstThenRemoves() {
    ConfirmingHistory view(db_);
    QVERIFY(waitForList(view));
    const int64_t gamma = idOf("gamma");
    select(view, {QStringLiteral("gamma")});
    QVERIFY(view.deleteButton()->isEnabled());
    QTest::mouseClick(view.deleteButton(), Qt::LeftButton);
    QCOMPARE(view.asked, 1);
    QVERIFY(view.question.contains(QStringLiteral("gamma")));
    QCOMPARE(RunStore(db_, Access::read).info(gamma).name, std::string("gamma"));  // declined

    view.answer = true;
    QSignalSpy changed(&view, &HistoryView::runsChanged);
    QSignalSpy refreshed(&view, &HistoryView::refreshed);
    QTest::mouseClick(view.deleteButton(), Qt::LeftButton);
    QCOMPARE(view.asked, 2);
    QVERIFY(changed.wait(kWaitMs));
    QVERIFY(idOf("gamma") == 0);
    QVERIFY(idOf("alpha") != 0);
    QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() >= 1, kWaitMs);
    QCOMPARE(names(view), (QStringList{"beta", "alpha"}));
    QVERIFY(!view.deleteButton()->isEnabled());
}

// "alpha" marked as its name's baseline; a later "alpha" run compared with it in one click.
void HistoryTest::baselineIsMarkedAndComparedWith() {
    const int64_t first = idOf("alpha");
    HistoryView view(db_);
    QVERIFY(waitForList(view));
    select(view, {QStringLiteral("alpha")});
    QVERIFY(view.baselineButton()->isEnabled());
    QSignalSpy changed(&view, &HistoryView::runsChanged);
    QTest::mouseClick(view.baselineButton(), Qt::LeftButton);
    QVERIFY(changed.wait(kWaitMs));
    QCOMPARE(RunStore(db_, Access::read).baseline_of("alpha"), std::optional<int64_t>(first));

    dir_->write("alpha.json", spec_text(server_->endpoint(), "alpha", {}));
    const test::Output o =
        test::run({PERFLAB_BINARY, "run", dir_->file("alpha.json"), "--db", db_, "-q"});
    QVERIFY2(o.code == 0, o.err.c_str());
    view.refresh();
    QVERIFY(waitForList(view));
    const int64_t second = RunStore(db_, Access::read).list().front().id;
    QVERIFY(second != first);
    view.selectRuns({second});
    QSignalSpy compare(&view, &HistoryView::compareRequested);
    QTest::mouseClick(view.compareBaselineButton(), Qt::LeftButton);
    QVERIFY(compare.wait(kWaitMs));
    QCOMPARE(compare.at(0).at(0).value<QList<qint64>>(), (QList<qint64>{first, second}));
}

// The zone's offset is the tz database's, not ours: Tokyo is 9 hours ahead all year, New York
// 5 hours behind in winter.
void HistoryTest::startTimesShowLocalTimeBesideUtc() {
    const QByteArray old = qgetenv("TZ");
    const auto in_zone = [](const char* zone, qint64 ms) {
        qputenv("TZ", zone);
        tzset();
        return wall_time_text(ms);
    };
    QCOMPARE(in_zone("UTC", 0), QStringLiteral("1970-01-01 00:00:00 UTC"));
    QCOMPARE(in_zone("Asia/Tokyo", 0), QStringLiteral("1970-01-01 00:00:00 UTC (09:00:00 local)"));
    QCOMPARE(in_zone("America/New_York", 1'000),
             QStringLiteral("1970-01-01 00:00:01 UTC (1969-12-31 19:00:01 local)"));
    if (old.isNull())
        qunsetenv("TZ");
    else
        qputenv("TZ", old);
    tzset();
}

// An nmon capture of a host written beside a run (its ZZZZ stamps in local time, one a second
// through the run), added from the run view: its CPU is charted in a panel of its own, named
// after the host, and the report's Servers table has it.
void HistoryTest::nmonCaptureBecomesAHostsPanels() {
    dir_->write("nmon.json", spec_text(server_->endpoint(), "nmon", {}));
    const test::Output o =
        test::run({PERFLAB_BINARY, "run", dir_->file("nmon.json"), "--db", db_, "-q"});
    QVERIFY2(o.code == 0, o.err.c_str());
    StoredRunView view(db_);
    QSignalSpy loaded(&view, &StoredRunView::runLoaded);
    view.open(idOf("nmon"));
    QVERIFY(loaded.wait(kWaitMs));
    const RunInfo info = view.run()->report.info;
    std::string capture =
        "AAA,progname,nmon\nAAA,host,dbhost\nAAA,interval,1\n"
        "CPU_ALL,CPU Total dbhost,User%,Sys%,Wait%,Idle%,Steal%,Busy,CPUs\n"
        "MEM,Memory MB dbhost,memtotal,hightotal,lowtotal,swaptotal,memfree,highfree,lowfree,"
        "swapfree,memshared,cached,active,bigfree,buffers,swapcached,inactive\n";
    for (int i = 1; i <= 2; ++i) {
        const std::time_t at = std::time_t((info.started_at_ms + i * 1000) / 1000);
        std::tm tm{};
        localtime_r(&at, &tm);
        char stamp[64];
        std::strftime(stamp, sizeof stamp, "%H:%M:%S,%d-%b-%Y", &tm);
        std::string when = stamp;
        for (auto& c : when)
            c = char(std::toupper(static_cast<unsigned char>(c)));
        const std::string t = "T000" + std::to_string(i);
        capture += "ZZZZ," + t + "," + when + "\n";
        capture += "CPU_ALL," + t + ",30.0,12.0,0.0,58.0,0.0,,4\n";
        capture += "MEM," + t + ",8192.0,-0.0,-0.0,0.0,4096.0,-0.0,-0.0,0.0,0.0,1024.0,0.0,-1.0," +
                   "0.0,0.0,0.0\n";
    }
    dir_->write("dbhost.nmon", capture);
    const int panels = view.chart()->panelCount();
    QString error;
    QVERIFY2(view.importHostCapture(QString::fromStdString(dir_->file("dbhost.nmon")), &error),
             qPrintable(error));
    QVERIFY(loaded.wait(kWaitMs));
    QVERIFY(view.chart()->panelCount() > panels);
    bool charted = false;
    for (int i = 0; i < view.chart()->panelCount(); ++i)
        charted = charted || view.chart()->panelTitle(i).contains(QStringLiteral("nmon dbhost"));
    QVERIFY(charted);
    // 100 - 58 idle: 42% busy, in the run's servers' figures.
    QVERIFY2(view.reportText().contains(QStringLiteral("42.0%")), qPrintable(view.reportText()));
    // The same capture twice is refused, and said in the view.
    QVERIFY(!view.importHostCapture(QString::fromStdString(dir_->file("dbhost.nmon")), &error));
    QVERIFY2(error.contains(QStringLiteral("already has samples")), qPrintable(error));
}

// A JTL JMeter 2.13 wrote (tests/fuzz/corpus/jtl): two Transaction Controller rows "page"
// (empty responseCode, elapsed 82 and 6 ms, both failed: each held a failed assertion), among
// nine requests, all within one second. The opened run charts the transactions apart from the
// requests, its report has them in a table of their own, and the exports carry them.
void HistoryTest::jmeterTransactionsHaveTheirOwnPanels() {
    test::TempDir dir;
    const std::string db = dir.file("jtl.db");
    const test::Output imported = test::run(
        {PERFLAB_BINARY, "import",
         std::string(PERFLAB_SOURCE_DIR) + "/tests/fuzz/corpus/jtl/jmeter-2.13-transactions.jtl",
         "--db", db});
    QVERIFY2(imported.code == 0, imported.err.c_str());

    StoredRunView view(db);
    QSignalSpy loaded(&view, &StoredRunView::runLoaded);
    view.open(1);
    QVERIFY(loaded.wait(kWaitMs));
    QCOMPARE(view.ticks(), 1);
    const TimeChart* chart = view.chart();
    QStringList titles;
    for (int i = 0; i < chart->panelCount(); ++i)
        titles << chart->panelTitle(i);
    QVERIFY2(titles.filter(QStringLiteral("Transactions")).size() == 1,
             qPrintable(titles.join('|')));
    QVERIFY2(titles.filter(QStringLiteral("Transaction latency")).size() == 1,
             qPrintable(titles.join('|')));
    QCPGraph* rate = graph(chart, QStringLiteral("page"));
    QCPGraph* p99 = graph(chart, QStringLiteral("page p99"));
    QVERIFY(rate && p99);
    QCOMPARE(rate->dataCount(), 1);
    const double secs = view.run()->samples.front().seconds();
    QCOMPARE(rate->data()->at(0)->value, 2.0 / secs);
    // The slower of the two, to the histogram's precision (0.1%).
    QVERIFY2(std::abs(p99->data()->at(0)->value - 82.0) <= 0.1,
             qPrintable(QString::number(p99->data()->at(0)->value)));
    // The requests' throughput has no transaction in it.
    QVERIFY(!graph(chart, QStringLiteral("transaction page")));

    const QString report = view.reportText();
    QVERIFY2(report.contains(QRegularExpression(QStringLiteral("\\| page \\| 2 \\| 2 \\|"))),
             qPrintable(report));
    const QString out = QString::fromStdString(dir.path());
    QString error;
    QVERIFY2(view.exportReport(out + QStringLiteral("/jtl.html"), &error), qPrintable(error));
    const QByteArray html = read(out + QStringLiteral("/jtl.html"));
    QVERIFY2(html.contains("<td>page</td>"), html.constData());
    QVERIFY2(view.exportCsv(out + QStringLiteral("/jtl.csv"), &error), qPrintable(error));
    // The labels before it hold commas (quoted): the transaction's columns are the last four.
    const QList<QByteArray> rows = read(out + QStringLiteral("/jtl.csv")).split('\n');
    const QList<QByteArray> header = rows.at(0).split(',');
    const QList<QByteArray> first = rows.at(1).split(',');
    QCOMPARE(header.at(header.size() - 4), QByteArray("transaction page_count"));
    QCOMPARE(first.at(first.size() - 4), QByteArray("2"));
    QCOMPARE(first.at(first.size() - 3), QByteArray("2"));  // errors
}

// A stored run's Prometheus and process samples, written as the probes write them: the run view
// draws a panel per metric and says on it how many series the probe's cap left out, and its
// report has the process's hottest threads, the hotter first.
void HistoryTest::storedProbesHavePanelsAndHotThreads() {
    test::TempDir dir;
    const std::string db = dir.file("probes.db");
    const SpecResult parsed =
        parse_spec(nlohmann::json::parse(spec_text(server_->endpoint(), "probes", {})));
    QVERIFY(parsed);
    const RunSpec& spec = *parsed.spec;
    const std::string prometheus = "prometheus http://127.0.0.1:9/metrics";
    const std::string java = "process local 'java'";
    const std::string failed =
        write_three_ticks(db, spec, [&](int i, IntervalSample& s, StoreWriter& writer) {
            s.misses = 100;
            writer.on_sample(s);
            writer.on_probe_sample({s.t_ms,
                                    prometheus,
                                    "prometheus",
                                    {{"prom.conns", 3.0 + i}, {"hidden_series", 12}},
                                    false});
            writer.on_probe_sample({s.t_ms,
                                    java,
                                    "process",
                                    {{"cpu_user_pct", 150.0},
                                     {"cpu_system_pct", 5.0},
                                     {"thread.hot-alpha.cpu_pct", 95.0},
                                     {"thread.hot-beta.cpu_pct", 55.0}},
                                    false});
        });
    QCOMPARE(QString::fromStdString(failed), QString());

    StoredRunView view(db);
    QSignalSpy loaded(&view, &StoredRunView::runLoaded);
    view.open(1);
    QVERIFY(loaded.wait(kWaitMs));
    QStringList titles;
    for (int i = 0; i < view.chart()->panelCount(); ++i)
        titles << view.chart()->panelTitle(i);
    const QString joined = titles.join(QLatin1Char('|'));
    QVERIFY2(joined.contains(QStringLiteral("(conns)")), qPrintable(joined));
    QVERIFY2(joined.contains(QStringLiteral("12 more series not shown")), qPrintable(joined));
    const QString report = view.reportText();
    const auto alpha = report.indexOf(QStringLiteral("hot-alpha"));
    const auto beta = report.indexOf(QStringLiteral("hot-beta"));
    QVERIFY2(alpha >= 0 && beta > alpha, qPrintable(report));
    QVERIFY2(report.contains(QStringLiteral("95.0")), qPrintable(report));
}

// A Redis Cluster run's nodes, as the driver counts them into its ticks: the run view's report
// has a row per node with what it answered, and so have the HTML and PDF reports.
void HistoryTest::storedClusterRunTellsEachNode() {
    test::TempDir dir;
    const std::string db = dir.file("cluster.db");
    nlohmann::json j = nlohmann::json::parse(spec_text(server_->endpoint(), "cluster", {}));
    j["cache"]["protocol"] = "redis";
    j["cache"]["redis"] = {{"cluster", true}};
    const SpecResult parsed = parse_spec(j);
    QVERIFY2(parsed, parsed.error_text().c_str());
    const RunSpec& spec = *parsed.spec;
    const std::string failed = write_three_ticks(
        db, spec,
        [](int, IntervalSample& s, StoreWriter& writer) {
            s.hits = 90;
            s.misses = 10;
            s.nodes["127.0.0.1:7001"] = {{{"get", 70}}, 0, 65, 5, 0, 0};
            s.nodes["127.0.0.1:7002"] = {{{"get", 30}}, 0, 25, 5, 2, 0};
            writer.on_sample(s);
        },
        [](RunSummary& summary) { summary.redis_cluster = true; });
    QCOMPARE(QString::fromStdString(failed), QString());

    StoredRunView view(db);
    QSignalSpy loaded(&view, &StoredRunView::runLoaded);
    view.open(1);
    QVERIFY(loaded.wait(kWaitMs));
    // 210 and 90 GETs of 300: 70.0% and 30.0%; the second node replied 6 MOVED.
    const QString report = view.reportText();
    const QRegularExpression first(QStringLiteral("127\\.0\\.0\\.1:7001 +210 .*70\\.0%"));
    const QRegularExpression second(
        QStringLiteral("127\\.0\\.0\\.1:7002 +90 +0 +75 +15 +83\\.33% +6 +0 +30\\.0%"));
    QVERIFY2(first.match(report).hasMatch(), qPrintable(report));
    QVERIFY2(second.match(report).hasMatch(), qPrintable(report));
    const QString out = QString::fromStdString(dir.path());
    QString error;
    QVERIFY2(view.exportReport(out + QStringLiteral("/cluster.html"), &error), qPrintable(error));
    const QString html = QString::fromUtf8(read(out + QStringLiteral("/cluster.html")));
    QVERIFY(html.contains(QStringLiteral("<h2>Cluster nodes</h2>")));
    QVERIFY(html.contains(QStringLiteral("<td>127.0.0.1:7002</td>")));
    QVERIFY2(view.exportReport(out + QStringLiteral("/cluster.pdf"), &error), qPrintable(error));
    const QString pdf = test::pdf_text(out + QStringLiteral("/cluster.pdf"));
    QVERIFY2(pdf.contains(QStringLiteral("Cluster nodes")), qPrintable(pdf));
    QVERIFY2(pdf.contains(QStringLiteral("127.0.0.1:7002")), qPrintable(pdf));
}

int run_history_test(int argc, char** argv) {
    HistoryTest t;
    return QTest::qExec(&t, argc, argv);
}

#include "history_test.moc"
