// SPDX-License-Identifier: MIT
#include "run_bridge.h"

namespace perflab {

RunBridge::RunBridge(QObject* parent) : QObject(parent) {
    register_metatypes();
}

void RunBridge::on_start(const RunSpec& spec) {
    emit started(spec);
}
void RunBridge::on_clock(int64_t wall_ms) {
    emit clockStarted(wall_ms);
}
void RunBridge::on_sample(const IntervalSample& sample) {
    emit sampled(sample);
}
void RunBridge::on_event(const RunEvent& e) {
    emit event(e);
}
void RunBridge::on_probe_sample(const ProbeSample& sample) {
    emit probeSampled(sample);
}
void RunBridge::on_phase_end(const PhaseTotals& phase) {
    emit phaseEnded(phase);
}
void RunBridge::on_end(const RunSummary& summary) {
    emit ended(summary);
}

}  // namespace perflab
