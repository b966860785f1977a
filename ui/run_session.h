// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "metatypes.h"
#include "probe_runner.h"

namespace perflab {

class LiveMetrics;
class MetricsListener;

class LocalMemcached;
class RunBridge;
class RunController;

// One run at a time on a worker thread: the RunController runs there, its callbacks reach
// the GUI through the bridge's queued signals. Owned and driven by the GUI thread.
class RunSession : public QObject {
    Q_OBJECT
  public:
    explicit RunSession(QObject* parent = nullptr);
    ~RunSession() override;  // stops a run still going and waits for its thread

    // Starts `spec`; false with `error` set when no engine can be made for it. Its probes
    // connect on the worker thread: one that cannot start ends the attempt with probeRefused
    // and nothing ran. `notes` become the run's first events (e.g. a probe left out).
    bool start(const RunSpec& spec, QString* error, const std::vector<std::string>& notes = {});
    // For the probes of the runs started from now on: known_hosts and key passphrases.
    void setProbeOptions(ProbeOptions options) { probeOptions_ = std::move(options); }
    // For the runs started from now on: serve their live figures to Prometheus at `address`
    // (HOST:PORT, as `run --metrics-listen`); empty: not at all. The endpoint stays up after
    // a run ends, its last figures there, until the next run starts.
    void setMetricsAddress(std::string address) { metricsAddress_ = std::move(address); }
    // Where the last run's figures are served ("http://127.0.0.1:9464/metrics"), or empty.
    QString metricsUrl() const;
    // Keeps `server` alive until the run ends (the quick start's own memcached).
    void adopt(std::unique_ptr<LocalMemcached> server);
    // Also while the probes still connect: their SSH work is cancelled, not waited for.
    void stop();
    bool running() const { return thread_.joinable(); }
    // The last run's id in the store, once finished was emitted; 0 when it was not stored.
    qint64 storedRunId() const { return storedRunId_; }
    // The current open-model phase's rate from now on; false when it cannot change.
    bool changeRate(double rate);
    // The rest of the phase at `factor` times its plan (a ramp keeps ramping).
    bool scaleRate(double factor);
    // A note on the run's time axis at t_ms, or now when t_ms < 0; false with no run.
    // t_ms < 0: at `asked` (steady clock, ns since its epoch), or now when that is 0 too.
    bool annotate(const QString& text, qint64 t_ms = -1, qint64 asked_ns = 0);
    const RunBridge* bridge() const { return bridge_; }

  signals:
    // After the bridge's ended(): the worker thread is gone by then.
    void finished(const perflab::RunSummary& summary);
    // Instead of started/finished: probe row `probe` (0-based) of `spec` could not start.
    void probeRefused(const perflab::RunSpec& spec, int probe, const QString& why);

  private:
    void onEnded(const RunSummary& summary);
    void onRefused(const RunSpec& spec, int probe, const QString& why);

    RunBridge* bridge_;
    std::unique_ptr<RunController> controller_;
    std::unique_ptr<LocalMemcached> server_;
    ProbeOptions probeOptions_;
    std::string metricsAddress_;
    // Declared after the controller: the endpoint goes first, then what it reads.
    std::unique_ptr<LiveMetrics> metrics_;
    std::unique_ptr<MetricsListener> listener_;
    std::shared_ptr<SshCancel> cancel_;  // the current run's probes
    std::thread thread_;
    int64_t storedRunId_ = 0;  // written by the run's thread, read after it was joined
};

}  // namespace perflab
