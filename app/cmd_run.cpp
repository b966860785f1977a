// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <iostream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>

#include "agent_figures.h"
#include "agents_engine.h"
#include "commands.h"
#include "console_observer.h"
#include "engine.h"
#include "metrics/live_metrics.h"
#include "metrics/metrics_listener.h"
#include "model/run_seed.h"
#include "model/summary_report.h"
#include "remote/hardware_profile.h"
#include "run_controller.h"
#include "run_probes.h"
#include "server_figures.h"
#include "signal_watch.h"
#include "store_access.h"
#include "store_writer.h"

namespace perflab {

namespace {

// Whatever way the run ends, a scraper that has been reading it gets its last figures before
// the endpoint goes: Prometheus scrapes every 15 s by default.
class LastScrape {
  public:
    explicit LastScrape(const std::unique_ptr<MetricsListener>& metrics) : metrics_(metrics) {}
    ~LastScrape() {
        if (!metrics_ || metrics_->scrapes() == 0) return;
        std::fprintf(stderr, "perflab: metrics: waiting for the last scrape (at most %d s)\n",
                     kWaitS);
        metrics_->await_scrape(metrics_->scrapes(), std::chrono::seconds(kWaitS));
    }
    LastScrape(const LastScrape&) = delete;
    LastScrape& operator=(const LastScrape&) = delete;

  private:
    static constexpr int kWaitS = 15;
    const std::unique_ptr<MetricsListener>& metrics_;
};

// Where the signal thread finds the running controller, for as long as it exists.
class StopRelay {
  public:
    void stop() {
        std::lock_guard lock(mutex_);
        if (controller_) controller_->request_stop();
    }

    class Attach {
      public:
        Attach(StopRelay& relay, RunController& controller) : relay_(relay) {
            std::lock_guard lock(relay_.mutex_);
            relay_.controller_ = &controller;
        }
        ~Attach() {
            std::lock_guard lock(relay_.mutex_);
            relay_.controller_ = nullptr;
        }
        Attach(const Attach&) = delete;
        Attach& operator=(const Attach&) = delete;

      private:
        StopRelay& relay_;
    };

  private:
    std::mutex mutex_;
    RunController* controller_ = nullptr;
};

// The probes' samples of a run, for the servers' figures of `run --json`.
class ProbeSamples : public RunObserver {
  public:
    void on_probe_sample(const ProbeSample& sample) override {
        std::lock_guard lock(mutex_);
        samples_.push_back(sample);
    }
    std::vector<ProbeSample> taken() {
        std::lock_guard lock(mutex_);
        return std::move(samples_);
    }

  private:
    std::mutex mutex_;
    std::vector<ProbeSample> samples_;
};

}  // namespace

int run_spec(const RunSpec& given, const RunOptions& options, int64_t* stored) {
    if (stored) *stored = 0;
    // The seed is fixed before anything sees the spec, so the store keeps the one that ran.
    const RunSpec spec = with_seed(given);
    // First, before the store's and the probes' threads start, so that every thread inherits
    // the blocked signals and Ctrl-C reaches the watcher instead of killing the process.
    StopRelay relay;
    const auto cancel = std::make_shared<SshCancel>();
    SignalWatch signals([&relay, &cancel] {
        cancel->cancel();
        relay.stop();
    });
    std::unique_ptr<LoadEngine> engine;
    const AgentsEngine* agents = nullptr;  // owned by the controller
    try {
        engine = make_run_engine(spec, cancel, &agents);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "perflab: %s\n", e.what());
        return kExitBadInput;
    }
    RunController controller(spec, std::move(engine));
    // Destroyed before the controller: a late Ctrl-C finds no controller rather than a freed one.
    const StopRelay::Attach attached(relay, controller);
    // Before any load (nothing has connected yet): an address that cannot be listened on is
    // bad input. Declared after the controller, so the endpoint goes before it does.
    LiveMetrics live([&controller] { return controller.slo_window_checks(); });
    std::unique_ptr<MetricsListener> metrics;
    if (!options.metrics_listen.empty()) {
        try {
            metrics = std::make_unique<MetricsListener>(options.metrics_listen,
                                                        [&live] { return live.exposition(); });
        } catch (const ListenError& e) {
            return bad_input(std::string("--metrics-listen: ") + e.what());
        }
        std::fprintf(stderr, "perflab: metrics at http://%s/metrics\n", metrics->address().c_str());
    }
    const LastScrape last_scrape(metrics);
    RunProbes probes(spec, cancel);
    if (const std::string error = probes.open(); !error.empty()) {
        if (cancel->cancelled()) {
            std::fprintf(stderr, "perflab: stopped while the probes connected; nothing ran\n");
            return kExitFailed;
        }
        std::fprintf(stderr, "perflab: %s\n", error.c_str());
        return kExitBadInput;
    }
    // Added first, so a tick is queued for the database before the console prints it.
    std::unique_ptr<StoreWriter> store;
    if (!options.no_store) {
        const std::string path = database_path(options.db);
        try {
            store = std::make_unique<StoreWriter>(path, spec, local_hardware_profile());
        } catch (const StoreError& e) {
            return bad_input(e.what());
        }
        std::fprintf(options.json ? stderr : stdout, "run %lld stored in %s\n",
                     static_cast<long long>(store->run_id()), path.c_str());
        std::fflush(options.json ? stderr : stdout);
        controller.add_observer(store.get());
        if (stored) *stored = store->run_id();
        for (const auto& [source, profile] : probes.profiles())
            store->add_host(profile, source);
    }
    if (metrics) controller.add_observer(&live);
    GeneratorWatch generator(generator_cores(spec));
    controller.add_observer(&generator);
    ConsoleObserver console(options.json ? stderr : stdout, &generator);
    if (!options.quiet) controller.add_observer(&console);
    ProbeSamples samples;
    probes.attach(controller,
                  {store.get(), options.quiet ? nullptr : &console, controller.slo_probe_observer(),
                   options.json ? &samples : nullptr},
                  options.quiet ? nullptr : (options.json ? stderr : stdout));
    const RunSummary summary = controller.run();
    if (store && agents)
        for (const auto& profile : agents->agent_profiles())
            store->add_host(profile, "agent");
    if (store) {
        if (const std::string error = store->finish(); !error.empty())
            std::fprintf(stderr, "perflab: the run was not fully stored: %s\n", error.c_str());
    }
    if (options.json) {
        nlohmann::json j = summary_json(summary);
        if (!summary.agents.empty()) j["agents"] = agent_totals_json(summary.agents);
        j["servers"] = servers_json(summary, samples.taken());
        std::cout << j.dump(2) << std::endl;
    } else {
        std::cout << summary_text(summary) << std::flush;
    }
    // Beside the figures, as the GUI's banner is: they may measure PerfLab, not the server.
    if (const std::string limit = generator.summary(); !limit.empty())
        std::fprintf(options.json ? stderr : stdout,
                     "Load generator: %s; those ticks may measure PerfLab, not the server\n",
                     limit.c_str());
    if (summary.status == RunStatus::failed) {
        std::fprintf(stderr, "perflab: run failed: %s\n", summary.error.c_str());
        return kExitFailed;
    }
    // The verdict last, its failing checks at the very bottom, where a terminal leaves them.
    if (summary.slo) {
        std::fprintf(options.json ? stderr : stdout, "%s", slo_text(*summary.slo).c_str());
        if (!summary.slo->passed) return kExitSloFailed;
    }
    if (summary.search) {
        std::fprintf(options.json ? stderr : stdout, "%s", search_text(*summary.search).c_str());
        if (!summary.search->max_rate) return kExitSloFailed;
    }
    return kExitOk;
}

namespace {

// --repeat: the runs of a series share a tag ("series-20261201T033542Z"), so `runs --tag`
// lists them and `compare` pools them. A run that fails ends the series with its exit;
// otherwise the exit is 3 when any run missed its slo.
int run_series(RunSpec spec, const RunOptions& options) {
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    std::strftime(stamp, sizeof stamp, "series-%Y%m%dT%H%M%SZ", &utc);
    spec.tags.push_back(stamp);
    std::string ids;
    int worst = kExitOk;
    for (int i = 1; i <= options.repeat; ++i) {
        std::printf("== %s: run %d of %d\n", stamp, i, options.repeat);
        std::fflush(stdout);
        int64_t id = 0;
        const int code = run_spec(spec, options, &id);
        if (id) ids += (ids.empty() ? "" : ",") + std::to_string(id);
        if (code == kExitFailed || code == kExitBadInput) {
            worst = code;
            break;
        }
        worst = std::max(worst, code);
    }
    if (!ids.empty())
        std::printf("%s: runs %s (compare with: perflab compare %s NEW)\n", stamp, ids.c_str(),
                    ids.c_str());
    return worst;
}

}  // namespace

int run_command(const RunOptions& options) {
    const SpecResult parsed = load_spec_file(options.spec_path);
    if (!parsed) {
        std::fprintf(stderr, "perflab: invalid spec %s:\n%s", options.spec_path.c_str(),
                     parsed.error_text().c_str());
        return kExitBadInput;
    }
    RunSpec spec = *parsed.spec;
    spec.tags.insert(spec.tags.end(), options.tags.begin(), options.tags.end());
    if (options.repeat <= 1) return run_spec(spec, options);
    if (options.json) {
        std::fprintf(stderr,
                     "perflab: --repeat prints a report per run: use it without --json "
                     "and compare the series (perflab compare ID,ID,...)\n");
        return kExitBadInput;
    }
    return run_series(spec, options);
}

}  // namespace perflab
