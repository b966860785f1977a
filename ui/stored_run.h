// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <vector>

#include "model/sample.h"
#include "model/spec.h"
#include "run_report.h"

namespace perflab {

class LiveCharts;

// Everything the history shows of one stored run, read in one go off the GUI thread and
// handed over whole.
struct StoredRun {
    RunReport report;
    RunSpec spec;
    std::vector<IntervalSample> samples;
};

// Throws StoreError for an unknown id. A stored spec the current validator rejects still
// gives the run's kind, so its charts can be drawn.
StoredRun load_stored_run(RunStore& store, int64_t id);

// Draws the run on `charts` as the live view drew it: one point per stored tick.
void show_stored_run(LiveCharts& charts, const StoredRun& run);

}  // namespace perflab
