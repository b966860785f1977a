// SPDX-License-Identifier: MIT
#include "run_session.h"

#include <QThread>

#include "database.h"
#include "engine.h"
#include "local_memcached.h"
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
    ProbeClock(ProbeRunner& probes, const RunController& controller)
        : probes_(probes), controller_(controller) {}
    void on_event(const RunEvent& e) override {
        if (e.kind == "stop") probes_.stop();
        if (started_ || e.kind != "phase") return;
        started_ = true;
        probes_.start(controller_.start_time());
    }
    void on_end(const RunSummary&) override { probes_.stop(); }

  private:
    ProbeRunner& probes_;
    const RunController& controller_;
    bool started_ = false;
};

// The worker thread's body: probes are opened here, not on the GUI thread, because an SSH
// connection can take seconds. A probe that cannot start is reported and left out.
void run_on_worker(const RunSpec& spec, const ProbeOptions& probeOptions, RunController& controller,
                   RunBridge& bridge) {
    // Every run is kept, as `perflab run` keeps it; a store that cannot open does not stop it.
    std::unique_ptr<StoreWriter> store;
    try {
        store =
            std::make_unique<StoreWriter>(default_database_path(), spec, local_hardware_profile());
        controller.add_observer(store.get());
    } catch (const std::exception& e) {
        bridge.on_event({0, "error", std::string("run not stored: ") + e.what()});
    }
    std::unique_ptr<ProbeRunner> probes;
    std::unique_ptr<ProbeClock> clock;
    if (!spec.probes.empty()) {
        try {
            probes = std::make_unique<ProbeRunner>(spec.probes, spec.tick_ms, probeOptions);
            probes->add_observer(&bridge);
            if (store) probes->add_observer(store.get());
            if (auto* slo = controller.slo_probe_observer()) probes->add_observer(slo);
            probes->open();
            if (store)
                for (const auto& [source, profile] : probes->profiles())
                    store->add_host(profile, source);
            clock = std::make_unique<ProbeClock>(*probes, controller);
            controller.add_observer(clock.get());
        } catch (const std::exception& e) {
            probes.reset();
            bridge.on_event({0, "error", std::string("probes not started: ") + e.what()});
        }
    }
    controller.run();
    if (probes) probes->stop();
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

bool RunSession::start(const RunSpec& given, QString* error) {
    Q_ASSERT(QThread::currentThread() == thread());
    if (running()) {
        *error = tr("A run is already going.");
        return false;
    }
    // Drawn here, so the engine, the store and the live view share the seed that ran.
    const RunSpec spec = with_seed(given);
    try {
        controller_ = std::make_unique<RunController>(spec, make_engine(spec));
    } catch (const std::exception& e) {
        *error = QString::fromStdString(e.what());
        return false;
    }
    controller_->add_observer(bridge_);
    ProbeOptions options = probeOptions_;
    cancel_ = options.cancel = std::make_shared<SshCancel>();
    thread_ = std::thread([spec, options = std::move(options), c = controller_.get(), b = bridge_] {
        run_on_worker(spec, options, *c, *b);
    });
    return true;
}

void RunSession::adopt(std::unique_ptr<LocalMemcached> server) {
    server_ = std::move(server);
}

void RunSession::stop() {
    if (cancel_) cancel_->cancel();
    if (controller_) controller_->request_stop();
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
