// SPDX-License-Identifier: MIT
#include "run_probes.h"

#include "probe_line.h"
#include "run_controller.h"

namespace perflab {

RunProbes::RunProbes(const RunSpec& spec, std::shared_ptr<SshCancel> cancel)
    : spec_(spec), cancel_(std::move(cancel)) {}

RunProbes::~RunProbes() {
    if (runner_) runner_->stop();
}

std::string RunProbes::open() {
    if (spec_.probes.empty()) return {};
    try {
        ProbeOptions options;
        options.cancel = cancel_;
        runner_ = std::make_unique<ProbeRunner>(spec_.probes, spec_.tick_ms, options);
        runner_->open();
    } catch (const ProbeError& e) {
        runner_.reset();
        return std::string("probe: ") + e.what();
    }
    return {};
}

std::map<std::string, HardwareProfile> RunProbes::profiles() const {
    return runner_ ? runner_->profiles() : std::map<std::string, HardwareProfile>{};
}

void RunProbes::LinePrinter::on_probe_sample(const ProbeSample& sample) {
    std::fprintf(out_, "%s\n", probe_line(sample).c_str());
    std::fflush(out_);
}

void RunProbes::attach(RunController& controller, const std::vector<RunObserver*>& observers,
                       std::FILE* lines) {
    if (!runner_) return;
    controller_ = &controller;
    for (auto* o : observers)
        if (o) runner_->add_observer(o);
    if (lines) {
        printer_ = std::make_unique<LinePrinter>(lines);
        runner_->add_observer(printer_.get());
    }
    controller.add_observer(this);
}

void RunProbes::on_event(const RunEvent& event) {
    if (event.kind == "stop") runner_->finish();
    // The first phase event comes as the run's clock starts.
    if (started_ || event.kind != "phase") return;
    started_ = true;
    runner_->start(controller_->start_time());
}

void RunProbes::on_ready() {
    runner_->baseline();
}

void RunProbes::on_phase_end(const PhaseTotals& phase) {
    if (phase.phase == int(spec_.phases.size()) - 1) runner_->finish();
}

void RunProbes::on_end(const RunSummary&) {
    runner_->stop();
}

}  // namespace perflab
