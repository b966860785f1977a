// SPDX-License-Identifier: MIT
#pragma once

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "model/observer.h"
#include "probe_runner.h"

namespace perflab {

class RunController;

// The spec's probes beside a run: opened before it (so a refused host key stops the run before
// any load), started on the run's clock with its first phase, stopped with its end.
class RunProbes : public RunObserver {
  public:
    // `cancel` (may be null) ends the probes' SSH work from another thread: a Ctrl-C.
    RunProbes(const RunSpec& spec, std::shared_ptr<SshCancel> cancel);
    ~RunProbes() override;
    // Connects every probe; returns an error naming the failing probe, or "".
    std::string open();
    // Probe samples and probe events go to `observers`, and a line per sample to `lines` unless
    // null; polling starts with the first phase.
    // The hosts (and JVM notes) the probes read, keyed by probe source; after open().
    std::map<std::string, HardwareProfile> profiles() const;
    void attach(RunController& controller, const std::vector<RunObserver*>& observers,
                std::FILE* lines);
    void on_event(const RunEvent& event) override;
    void on_ready() override;
    // Polling stops with the last phase (or a stop), before any observer sees on_end.
    void on_phase_end(const PhaseTotals& phase) override;
    void on_end(const RunSummary& summary) override;

  private:
    class LinePrinter : public RunObserver {
      public:
        explicit LinePrinter(std::FILE* out) : out_(out) {}
        void on_probe_sample(const ProbeSample& sample) override;

      private:
        std::FILE* out_;
    };

    const RunSpec& spec_;
    std::shared_ptr<SshCancel> cancel_;
    std::unique_ptr<LinePrinter> printer_;
    std::unique_ptr<ProbeRunner> runner_;
    RunController* controller_ = nullptr;
    bool started_ = false;
};

}  // namespace perflab
