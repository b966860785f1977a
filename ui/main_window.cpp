// SPDX-License-Identifier: MIT
#include "main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QUrl>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <utility>

#include "ab_dialog.h"
#include "chart_export.h"
#include "compare_view.h"
#include "database.h"
#include "file_dialogs.h"
#include "history_view.h"
#include "hosts_view.h"
#include "live_view.h"
#include "local_memcached.h"
#include "local_redis.h"
#include "model/secrets.h"
#include "quick_start.h"
#include "run_bridge.h"
#include "run_import.h"
#include "run_list_model.h"
#include "run_session.h"
#include "spec_form.h"
#include "time_chart.h"

namespace perflab {

namespace {

constexpr int kQuickStartSeconds = 30;

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      dbPath_(default_database_path()),
      tabs_(new QTabWidget(this)),
      form_(new SpecForm(this)),
      live_(new LiveView(this)),
      history_(new HistoryView(dbPath_, this)),
      compare_(new CompareView(dbPath_, this)),
      hosts_(new HostsView(dbPath_, default_known_hosts_path(), this)),
      session_(new RunSession(this)) {
    setWindowTitle(tr("PerfLab"));
    setAcceptDrops(true);
    register_metatypes();
    setupViews();
    setupMenus();
    setupSession();
    setupStoreViews();
    restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::setupViews() {
    auto* setup = new QWidget(this);
    auto* layout = new QVBoxLayout(setup);
    layout->addWidget(setupWelcome());
    layout->addWidget(form_, 1);
    tabs_->addTab(setup, tr("Set up"));
    tabs_->addTab(live_, tr("Live"));
    tabs_->addTab(history_, tr("History"));
    tabs_->addTab(compare_, tr("Compare"));
    tabs_->addTab(hosts_, tr("Hosts"));
    setCentralWidget(tabs_);
    connect(form_, &SpecForm::startRequested, this, [this](const RunSpec& spec) {
        QString error;
        if (!startRun(spec, &error)) report(tr("Cannot start the run"), error);
    });
}

QWidget* MainWindow::setupWelcome() {
    welcome_ = new QFrame(this);
    welcome_->setObjectName(QStringLiteral("welcome"));
    welcome_->setStyleSheet(
        QStringLiteral("#welcome { background: #e3f2fd; border: 1px solid #90caf9; }"));
    auto* row = new QHBoxLayout(welcome_);
    auto* text = new QLabel(tr("<b>New to PerfLab?</b> Quick start runs a %1-second cache demo "
                               "against a memcached PerfLab starts on this machine, so you see "
                               "live charts right away.")
                                .arg(kQuickStartSeconds),
                            welcome_);
    text->setWordWrap(true);
    auto* button = new QPushButton(tr("Quick start"), welcome_);
    button->setObjectName(QStringLiteral("quickStartButton"));
    connect(button, &QPushButton::clicked, this, [this] {
        QString error;
        if (!quickStart(kQuickStartSeconds, &error)) report(tr("Quick start failed"), error);
    });
    row->addWidget(text, 1);
    row->addWidget(button);
    if (redis_server_installed()) {
        auto* redis = new QPushButton(tr("Redis demo"), welcome_);
        redis->setObjectName(QStringLiteral("redisQuickStartButton"));
        redis->setToolTip(tr("The same against a redis-server PerfLab starts on this machine"));
        connect(redis, &QPushButton::clicked, this, &MainWindow::startRedisDemo);
        row->addWidget(redis);
    }
    return welcome_;
}

void MainWindow::setupMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open spec…"), QKeySequence::Open, this, &MainWindow::openSpec);
    file->addAction(tr("&Save spec"), QKeySequence::Save, this, &MainWindow::saveSpec);
    file->addAction(tr("Save spec &as…"), QKeySequence::SaveAs, this, &MainWindow::saveSpecAs);
    file->addSeparator();
    file->addAction(tr("&Export live chart…"), this, &MainWindow::exportChart);
    file->addAction(tr("&Import results…"), this, &MainWindow::importResults);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    // The form's Start button, which is enabled exactly when a run can start.
    startAction_ = run->addAction(tr("&Start"), QKeySequence(Qt::CTRL | Qt::Key_R),
                                  form_->startButton(), &QPushButton::click);
    stopAction_ = run->addAction(tr("S&top"), QKeySequence(Qt::CTRL | Qt::Key_Period), this,
                                 [this] { session_->stop(); });
    run->addSeparator();
    quickStartAction_ = run->addAction(tr("&Quick start"), this, [this] {
        QString error;
        if (!quickStart(kQuickStartSeconds, &error)) report(tr("Quick start failed"), error);
    });
    if (redis_server_installed())
        redisQuickStartAction_ =
            run->addAction(tr("Quick start with &Redis"), this, &MainWindow::startRedisDemo);
    run->addAction(tr("Compare two specs (&A/B)…"), this, &MainWindow::openAbDialog);
    run->addAction(tr("Live &metrics for Prometheus…"), this, &MainWindow::askMetricsAddress);
    statusBar()->showMessage(tr("Ready"));
}

// The experiment runs in processes of its own, beside whatever the window does meanwhile.
void MainWindow::openAbDialog() {
    if (!ab_) {
        ab_ = new AbDialog(dbPath_, QCoreApplication::applicationFilePath(), this);
        connect(ab_, &AbDialog::experimentFinished, this, [this](QList<qint64> a, QList<qint64> b) {
            history_->refresh();
            compare_->compareSeries(std::move(a), std::move(b));
            showView(View::compare);
        });
    }
    ab_->show();
    ab_->raise();
}

void MainWindow::updateRunActions() {
    const bool running = session_->running();
    form_->startButton()->setEnabled(form_->isValid() && !running);
    startAction_->setEnabled(form_->isValid() && !running);
    stopAction_->setEnabled(running);
    quickStartAction_->setEnabled(!running);
    if (redisQuickStartAction_) redisQuickStartAction_->setEnabled(!running);
}

void MainWindow::setupSession() {
    const RunBridge* bridge = session_->bridge();
    constexpr auto queued = Qt::QueuedConnection;
    connect(bridge, &RunBridge::started, live_, &LiveView::begin, queued);
    connect(bridge, &RunBridge::clockStarted, live_, &LiveView::clockStarted, queued);
    connect(bridge, &RunBridge::sampled, live_, &LiveView::addSample, queued);
    connect(bridge, &RunBridge::event, live_, &LiveView::addEvent, queued);
    connect(bridge, &RunBridge::probeSampled, live_, &LiveView::addProbeSample, queued);
    connect(session_, &RunSession::finished, this, &MainWindow::onFinished);
    connect(session_, &RunSession::probeRefused, this, &MainWindow::onProbeRefused);
    connect(live_, &LiveView::stopRequested, session_, &RunSession::stop);
    connect(live_, &LiveView::noteRequested, this,
            [this](const QString& text, qint64 t_ms, qint64 asked) {
                session_->annotate(text, t_ms, asked);
            });
    connect(live_, &LiveView::rateChangeRequested, this, [this](double rate) {
        if (!session_->changeRate(rate))
            statusBar()->showMessage(tr("This phase's rate cannot be changed now"), 5000);
    });
    connect(live_, &LiveView::rateScaleRequested, this, [this](double factor) {
        if (!session_->scaleRate(factor))
            statusBar()->showMessage(tr("This phase's rate cannot be changed now"), 5000);
    });
    connect(form_, &SpecForm::validityChanged, this, &MainWindow::updateRunActions);
    updateRunActions();
}

void MainWindow::setupStoreViews() {
    // Quick start is offered to whoever has no run in the history yet.
    welcome_->hide();
    connect(history_, &HistoryView::refreshed, this, [this] {
        const bool unfiltered = history_->filter().kind.empty() && history_->filter().tag.empty() &&
                                history_->filter().name.empty();
        if (unfiltered)
            welcome_->setVisible(history_->model()->rowCount() == 0 && !session_->running());
    });
    connect(history_, &HistoryView::compareRequested, this, [this](const QList<qint64>& ids) {
        compare_->compare(ids);
        showView(View::compare);
    });
    connect(compare_, &CompareView::openRunRequested, this, [this](qint64 id) {
        history_->openRun(id);
        showView(View::history);
    });
    connect(hosts_, &HostsView::savedHostsChanged, this,
            [this] { form_->setSavedHosts(hosts_->savedHosts()); });
    const auto show = [this](const QString& message) { statusBar()->showMessage(message); };
    connect(history_, &HistoryView::failed, this, show);
    connect(compare_, &CompareView::failed, this, show);
    history_->refresh();
}

void MainWindow::showView(View view) {
    tabs_->setCurrentIndex(static_cast<int>(view));
}

bool MainWindow::startRun(const RunSpec& spec, QString* error,
                          const std::vector<std::string>& notes) {
    ProbeOptions probes;
    probes.key_passphrases = hosts_->passphrases();
    session_->setProbeOptions(std::move(probes));
    if (!session_->start(spec, error, notes)) return false;
    startNotes_ = notes;
    updateRunActions();
    welcome_->hide();
    showView(View::live);
    const QString metrics = session_->metricsUrl();
    statusBar()->showMessage(
        metrics.isEmpty() ? tr("Running %1").arg(qs(spec.name))
                          : tr("Running %1; live metrics at %2").arg(qs(spec.name), metrics));
    return true;
}

// Where Prometheus may scrape the runs' live figures: kept in the settings, as
// `run --metrics-listen` takes it; empty turns it off.
void MainWindow::askMetricsAddress() {
    bool ok = false;
    const QString address = QInputDialog::getText(
        this, tr("Live metrics for Prometheus"),
        tr("Serve each run's live figures at HOST:PORT/metrics (empty: off):"), QLineEdit::Normal,
        QSettings().value(QStringLiteral("metrics/listen")).toString(), &ok);
    if (!ok) return;
    setMetricsAddress(address.trimmed());
}

void MainWindow::setMetricsAddress(const QString& address) {
    QSettings().setValue(QStringLiteral("metrics/listen"), address);
    session_->setMetricsAddress(address.toStdString());
}

bool MainWindow::quickStart(int seconds, QString* error) {
    std::unique_ptr<LocalMemcached> server;
    try {
        server = std::make_unique<LocalMemcached>();
    } catch (const std::exception& e) {
        *error = tr("could not start a local memcached (is it installed?): %1").arg(qs(e.what()));
        return false;
    }
    if (!startRun(quick_start_spec(server->endpoint(), seconds), error)) return false;
    session_->adopt(std::move(server));
    return true;
}

void MainWindow::startRedisDemo() {
    QString error;
    if (!quickStartRedis(kQuickStartSeconds, &error)) report(tr("Redis demo failed"), error);
}

bool MainWindow::quickStartRedis(int seconds, QString* error) {
    QFile file(QStringLiteral(":/specs/redis-cache-aside.json"));
    const auto redis_template = nlohmann::json::parse(
        file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string(), nullptr,
        false);
    if (!redis_template.is_object()) {
        *error = tr("the Redis template resources/specs/redis-cache-aside.json is missing");
        return false;
    }
    try {
        if (!redis_) redis_ = std::make_unique<LocalRedis>();
    } catch (const std::exception& e) {
        *error = tr("could not start a local redis-server: %1").arg(qs(e.what()));
        return false;
    }
    return startRun(redis_quick_start_spec(redis_template, redis_->endpoint(), seconds), error);
}

void MainWindow::onFinished(const RunSummary& summary) {
    live_->finish(summary);
    updateRunActions();
    statusBar()->showMessage(tr("Run %1").arg(qs(to_string(summary.status))));
    if (const qint64 id = session_->storedRunId())
        history_->selectRun(id);
    else
        history_->refresh();
    emit runFinished(summary);
    if (closeAfterRun_) close();
}

// Like `perflab run`, which refuses such a spec: nothing ran. The user may start without the
// probe, and the run then says so in its first event (and the live view's notices).
void MainWindow::onProbeRefused(const RunSpec& spec, int probe, const QString& why) {
    updateRunActions();
    showView(View::setup);
    statusBar()->showMessage(tr("Run not started: %1").arg(why));
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("A probe cannot start"),
                        tr("The run was not started: %1").arg(why), QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("probeRefused"));
    box->setInformativeText(
        tr("Start without this probe (the run records that it was left "
           "out), or cancel and fix the probe in the form."));
    QPushButton* without = box->addButton(tr("Start without it"), QMessageBox::AcceptRole);
    without->setObjectName(QStringLiteral("startWithoutProbe"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(without, &QPushButton::clicked, this, [this, spec, probe, why] {
        RunSpec rest = spec;
        rest.probes.erase(rest.probes.begin() + probe);
        std::vector<std::string> notes = startNotes_;
        notes.push_back(tr("%1 — left out, the run started without it").arg(why).toStdString());
        QString error;
        if (!startRun(rest, &error, notes)) report(tr("Cannot start the run"), error);
    });
    box->open();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (session_->running()) {
        event->ignore();
        if (closeAfterRun_) {
            // Asked again while the run ends: stop waiting for the operations in flight.
            statusBar()->showMessage(tr("Stopping the run: operations in flight cancelled…"));
            session_->stop();
            return;
        }
        const auto answer =
            QMessageBox::question(this, tr("A run is going"), tr("Stop the run and close PerfLab?"),
                                  QMessageBox::Yes | QMessageBox::No, QMessageBox::No);
        if (answer != QMessageBox::Yes) return;
        // The question waits for the user: the run may have ended meanwhile, and then
        // nothing is left to wait for.
        if (session_->running()) {
            closeAfterRun_ = true;
            statusBar()->showMessage(tr("Stopping the run…"));
            session_->stop();
            return;
        }
    }
    saveSettings();
    event->accept();
}

void MainWindow::restoreSettings() {
    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray()))
        resize(1500, 950);
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    const QByteArray last = settings.value(QStringLiteral("spec/last")).toByteArray();
    const auto j = nlohmann::json::parse(last.begin(), last.end(), nullptr, false);
    form_->setJson(!last.isEmpty() && j.is_object() ? j : first_form_json());
    tabs_->setCurrentIndex(settings.value(QStringLiteral("window/tab"), 0).toInt());
    session_->setMetricsAddress(
        settings.value(QStringLiteral("metrics/listen")).toString().toStdString());
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("window/tab"), tabs_->currentIndex());
    settings.setValue(QStringLiteral("spec/last"),
                      QByteArray::fromStdString(masked_for_storage(form_->json()).dump()));
}

void MainWindow::openSpec() {
    const QString path = ask_open_path(this, tr("Open run spec"), tr("Run specs (*.json)"),
                                       QStringLiteral("spec/dir"));
    if (path.isEmpty()) return;
    QString error;
    if (!form_->loadFile(path, &error)) return report(tr("Cannot open the spec"), error);
    showView(View::setup);
}

void MainWindow::saveSpec() {
    if (form_->filePath().isEmpty()) return saveSpecAs();
    writeSpec(form_->filePath());
}

void MainWindow::saveSpecAs() {
    const QString path = ask_save_path(this, tr("Save run spec"), tr("Run specs (*.json)"),
                                       QStringLiteral("spec/dir"));
    if (!path.isEmpty()) writeSpec(path);
}

void MainWindow::writeSpec(const QString& path) {
    QString error;
    if (!form_->saveFile(path, &error)) return report(tr("Cannot save the spec"), error);
    statusBar()->showMessage(tr("Spec saved to %1").arg(path));
}

// Before a run has drawn anything the chart is blank: an image of it would be a white page.
void MainWindow::exportChart() {
    TimeChart* chart = live_->chart();
    if (!chart_has_data(chart->plot()))
        return report(tr("Nothing to export"),
                      tr("The live chart is empty: start a run first. A stored run's chart "
                         "exports from its page in History."));
    export_chart_dialog(this, chart->plot(), chart->title());
}

void MainWindow::importResults() {
    const QString path =
        ask_open_path(this, tr("Import another tool's results"),
                      tr("Results (*.jtl *.csv *.json *.hlog *.log *.perflab);;PerfLab bundle "
                         "(*.perflab);;All files (*)"),
                      QStringLiteral("import/dir"));
    if (!path.isEmpty()) importFile(path);
}

void MainWindow::importFile(const QString& path) {
    ++importing_;
    if (!importProgress_) {
        importProgress_ = new QProgressBar(this);
        importProgress_->setObjectName(QStringLiteral("importProgress"));
        importProgress_->setRange(0, 100);
        importProgress_->setMaximumWidth(200);
        statusBar()->addPermanentWidget(importProgress_);
    }
    importProgress_->setValue(0);
    importProgress_->show();
    statusBar()->showMessage(tr("Importing %1…").arg(path));
    ImportOptions options;
    options.file = path.toStdString();
    // The reading thread reports to the GUI thread through queued calls.
    QPointer<QProgressBar> bar = importProgress_;
    options.progress = [bar](double share) {
        QMetaObject::invokeMethod(bar, [bar, share] {
            if (bar) bar->setValue(int(share * 100));
        });
    };
    struct Imported {
        QList<qint64> ids;
        QString error;
    };
    auto* watcher = new QFutureWatcher<Imported>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path] {
        watcher->deleteLater();
        const auto [ids, error] = watcher->result();
        importProgress_->hide();
        --importing_;
        if (!error.isEmpty()) {
            report(tr("Cannot import %1").arg(path), error);
            emit importFailed(error);
            importNext();
            return;
        }
        const qint64 id = ids.front();
        QStringList names;
        for (const qint64 i : ids)
            names << QString::number(i);
        statusBar()->showMessage(ids.size() == 1
                                     ? tr("Imported %1 as run %2").arg(path).arg(id)
                                     : tr("Imported %1 as runs %2").arg(path, names.join(", ")));
        history_->showList();
        history_->selectRun(id);
        showView(View::history);
        emit importFinished(id);
        importNext();
    });
    watcher->setFuture(QtConcurrent::run([db = dbPath_, options] {
        Imported imported;
        try {
            for (const int64_t id : import_run(db, options).run_ids)
                imported.ids << id;
        } catch (const std::exception& e) {
            imported.error = QString::fromStdString(e.what());
        }
        return imported;
    }));
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() &&
        std::all_of(urls.begin(), urls.end(), [](const QUrl& url) { return url.isLocalFile(); }))
        event->acceptProposedAction();
}

// Each file dropped is imported as File → Import results… imports it, one after another.
void MainWindow::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) paths << url.toLocalFile();
    if (paths.isEmpty()) return;
    event->acceptProposedAction();
    importQueue_ << paths;
    importNext();
}

void MainWindow::importNext() {
    if (importing_ == 0 && !importQueue_.isEmpty()) importFile(importQueue_.takeFirst());
}

// Shown window-modal without a nested event loop: a run going on, its ticks and its end
// (or an import's progress) are handled while the message waits for the user.
void MainWindow::report(const QString& title, const QString& error) {
    statusBar()->showMessage(title % QStringLiteral(": ") % error);
    auto* box = new QMessageBox(QMessageBox::Warning, title, error, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorReport"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace perflab
