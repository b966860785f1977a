// SPDX-License-Identifier: MIT
#include "stored_run.h"

#include "live_charts.h"

namespace perflab {

namespace {

RunSpec stored_spec(const RunReport& report) {
    if (SpecResult parsed = parse_stored_spec(report.spec)) return *parsed.spec;
    RunSpec spec;
    spec.name = report.info.name;
    spec.kind = report.info.kind == "http" ? RunKind::http : RunKind::cache;
    return spec;
}

}  // namespace

StoredRun load_stored_run(RunStore& store, int64_t id) {
    StoredRun run;
    run.report = load_report(store, id);
    run.spec = stored_spec(run.report);
    run.samples = store.samples(id);
    return run;
}

void show_stored_run(LiveCharts& charts, const StoredRun& run) {
    charts.begin(run.spec);
    for (const auto& s : run.samples)
        charts.addSample(s);
    for (const auto& p : run.report.probes)
        charts.addProbeSample(p);
    for (const auto& e : run.report.events)
        charts.addEvent(e);
    charts.refresh();
}

}  // namespace perflab
