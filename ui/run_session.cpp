// SPDX-License-Identifier: MIT
#include "run_session.h"

#include <QThread>
#include <chrono>
#include <functional>

#include "agents_engine.h"
#include "database.h"
#include "engine.h"
#include "local_memcached.h"
#include "metrics/live_metrics.h"
#include "metrics/metrics_listener.h"
#include "model/run_seed.h"
#include "probe_runner.h"
#include "run_bridge.h"
#include "run_controller.h"
#include "store_writer.h"

namespace perflab {

namespace {

// Starts the probes on the run's clock with its first phase and stops them with its end;
// the probes deliver to the bridge themselves.
class ProbeClock : public RunObserver {
  public:
    ProbeClock(ProbeRunner& probes, const RunController& controller, int phases)
        : probes_(probes), controller_(controller), phases_(phases) {}
    void on_event(const RunEvent& e) override {
        if (e.kind == "stop") probes_.finish();
        if (started_ || e.kind != "phase") return;
        started_ = true;
        probes_.start(controller_.start_time());
    }
    void on_ready() override { probes_.baseline(); }
    // With the last phase, before the run's verdict: the probes' last samples are in it.
    void on_phase_end(const PhaseTotals& phase) override {
        if (phase.phase == phases_ - 1) probes_.finish();
    }
    void on_end(const RunSummary&) override { probes_.stop(); }

  private:
    ProbeRunner& probes_;
    const RunController& controller_;
    int phases_;
    bool started_ = false;
};

// Sends the notes the run starts with (probes the user chose to leave out) to the live view
// and the store as events at t = 0, once both know the run.
class StartNotes : public RunObserver {
  public:
    StartNotes(std::vector<std::string> notes, std::vector<RunObserver*> targets)
        : notes_(std::move(notes)), targets_(std::move(targets)) {}
    void on_start(const RunSpec&) override {
        for (const auto& note : notes_)
            for (auto* t : targets_)
                t->on_event({0, "error", note});
    }

  private:
    std::vector<std::string> notes_;
    std::vector<RunObserver*> targets_;
};

// "probe 2 (memcached 10.0.0.5:11211): cannot connect: …", the target named once.
std::string refusal_text(const RunSpec& spec, size_t index, const std::string& what) {
    const ProbeSpec& p = spec.probes[index];
    std::string name = to_string(p.type);
    if (!p.target.empty() && what.find(p.target) == std::string::npos) name += " " + p.target;
    return "probe " + std::to_string(index + 1) + " (" + name + "): " + what;
}

// Opens the spec's probes one at a time, so that a failure names its row of the probe table.
struct ProbesOpened {
    std::unique_ptr<ProbeRunner> runner;
    int failed = -1;  // the row that could not start
    std::string error;
};

ProbesOpened open_probes(const RunSpec& spec, const ProbeOptions& options) {
    ProbesOpened out;
    std::vector<std::unique_ptr<Probe>> opened;
    for (size_t i = 0; i < spec.probes.size(); ++i) {
        try {
            auto probe = make_probe(spec.probes[i], options, spec.tick_ms);
            probe->open();
            opened.push_back(std::move(probe));
        } catch (const std::exception& e) {
            out.failed = int(i);
            out.error = refusal_text(spec, i, e.what());
            return out;
        }
    }
    out.runner = std::make_unique<ProbeRunner>(std::move(opened), spec.tick_ms);
    return out;
}

// The worker thread's body: probes are opened here, not on the GUI thread, because an SSH
// connection can take seconds. As `perflab run` does, a probe that cannot start stops the run
// before anything is stored or sent: `refused` gets its row and the reason, and the user
// decides. A Stop while they connect is no refusal: the run ends stopped, as it was asked.
// `stored_id` gets the stored run's id.
void run_on_worker(const RunSpec& spec, const ProbeOptions& probeOptions,
                   std::vector<std::string> notes, RunController& controller,
                   const AgentsEngine* agents, RunBridge& bridge,
                   const std::function<void(int, std::string)>& refused, int64_t* stored_id) {
    ProbesOpened probes;
    if (!spec.probes.empty()) {
        probes = open_probes(spec, probeOptions);
        const bool cancelled = probeOptions.cancel && probeOptions.cancel->cancelled();
        if (probes.failed >= 0 && !cancelled) return refused(probes.failed, probes.error);
        if (probes.failed >= 0) notes.push_back("probes not started: " + probes.error);
    }
    // Every run is kept, as `perflab run` keeps it; a store that cannot open does not stop it.
    std::unique_ptr<StoreWriter> store;
    try {
        store =
            std::make_unique<StoreWriter>(default_database_path(), spec, local_hardware_profile());
        controller.add_observer(store.get());
        *stored_id = store->run_id();
    } catch (const std::exception& e) {
        notes.push_back(std::string("run not stored: ") + e.what());
    }
    std::vector<RunObserver*> noted{&bridge};
    if (store) noted.push_back(store.get());
    StartNotes start_notes(std::move(notes), noted);
    controller.add_observer(&start_notes);
    std::unique_ptr<ProbeClock> clock;
    if (ProbeRunner* runner = probes.runner.get()) {
        runner->add_observer(&bridge);
        if (store) runner->add_observer(store.get());
        if (auto* slo = controller.slo_probe_observer()) runner->add_observer(slo);
        if (store)
            for (const auto& [source, profile] : runner->profiles())
                store->add_host(profile, source);
        clock = std::make_unique<ProbeClock>(*runner, controller, int(spec.phases.size()));
        controller.add_observer(clock.get());
    }
    controller.run();
    if (probes.runner) probes.runner->stop();
    if (store && agents)
        for (const auto& profile : agents->agent_profiles())
            store->add_host(profile, "agent");
    if (store) store->finish();
}

}  // namespace

RunSession::RunSession(QObject* parent) : QObject(parent), bridge_(new RunBridge(this)) {
    connect(bridge_, &RunBridge::ended, this, &RunSession::onEnded, Qt::QueuedConnection);
}

RunSession::~RunSession() {
    if (!thread_.joinable()) return;
    stop();
    thread_.join();
}

bool RunSession::start(const RunSpec& given, QString* error,
                       const std::vector<std::string>& notes) {
    Q_ASSERT(QThread::currentThread() == thread());
    if (running()) {
        *error = tr("A run is already going.");
        return false;
    }
    // Drawn here, so the engine, the store and the live view share the seed that ran.
    const RunSpec spec = with_seed(given);
    ProbeOptions options = probeOptions_;
    cancel_ = options.cancel = std::make_shared<SshCancel>();
    const AgentsEngine* agents = nullptr;  // owned by the controller
    // The last run's endpoint goes before the controller its figures asked.
    listener_.reset();
    metrics_.reset();
    try {
        controller_ =
            std::make_unique<RunController>(spec, make_run_engine(spec, cancel_, &agents));
    } catch (const std::exception& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    if (!metricsAddress_.empty()) {
        metrics_ = std::make_unique<LiveMetrics>(
            [c = controller_.get()] { return c->slo_window_checks(); });
        try {
            listener_ = std::make_unique<MetricsListener>(
                metricsAddress_, [m = metrics_.get()] { return m->exposition(); });
        } catch (const ListenError& e) {
            metrics_.reset();
            *error = tr("Live metrics: %1").arg(QString::fromStdString(e.what()));
            return false;
        }
        controller_->add_observer(metrics_.get());
    }
    controller_->add_observer(bridge_);
    const auto refused = [this, spec](int probe, const std::string& why) {
        QMetaObject::invokeMethod(
            this, [this, spec, probe, why] { onRefused(spec, probe, QString::fromStdString(why)); },
            Qt::QueuedConnection);
    };
    storedRunId_ = 0;
    thread_ = std::thread([spec, options = std::move(options), notes, c = controller_.get(), agents,
                           b = bridge_, refused, id = &storedRunId_] {
        run_on_worker(spec, options, notes, *c, agents, *b, refused, id);
    });
    return true;
}

QString RunSession::metricsUrl() const {
    return listener_ ? QStringLiteral("http://%1/metrics")
                           .arg(QString::fromStdString(listener_->address()))
                     : QString();
}

void RunSession::adopt(std::unique_ptr<LocalMemcached> server) {
    server_ = std::move(server);
}

bool RunSession::annotate(const QString& text, qint64 t_ms, qint64 asked_ns) {
    if (!controller_) return false;
    const auto asked =
        asked_ns > 0 ? std::chrono::steady_clock::time_point(std::chrono::nanoseconds(asked_ns))
                     : std::chrono::steady_clock::now();
    controller_->annotate(text.toStdString(),
                          t_ms < 0 ? std::nullopt : std::optional<int64_t>(t_ms), asked);
    return true;
}

bool RunSession::changeRate(double rate) {
    return controller_ && controller_->change_rate(rate);
}

bool RunSession::scaleRate(double factor) {
    return controller_ && controller_->scale_rate(factor);
}

void RunSession::stop() {
    if (cancel_) cancel_->cancel();
    if (controller_) controller_->request_stop();
}

void RunSession::onRefused(const RunSpec& spec, int probe, const QString& why) {
    Q_ASSERT(QThread::currentThread() == thread());
    if (thread_.joinable()) thread_.join();
    controller_.reset();
    server_.reset();
    emit probeRefused(spec, probe, why);
}

void RunSession::onEnded(const RunSummary& summary) {
    Q_ASSERT(QThread::currentThread() == thread());
    // run() returns right after its last on_end, so this join does not wait on the load.
    if (thread_.joinable()) thread_.join();
    controller_.reset();
    server_.reset();
    emit finished(summary);
}

}  // namespace perflab
