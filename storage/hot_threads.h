// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/probe_sample.h"
#include "model/summary.h"

namespace perflab {

// One thread of a process probe over a span of a run: its CPU (% of one core) in the samples
// whose tick ended in (from_ms, to_ms] and that counted it among the process's top N threads.
struct HotThread {
    std::string source;  // "process local 'java'"
    std::string thread;  // the name the probe gave it (the JVM's, else its comm)
    double mean_cpu_pct = 0;
    double max_cpu_pct = 0;
    int samples = 0;          // the samples that counted it
    int process_samples = 0;  // the process's samples in the span
};

// Every thread any process sample of the span names, by source, hottest mean first.
std::vector<HotThread> hot_threads(const std::vector<ProbeSample>& samples, int64_t from_ms,
                                   int64_t to_ms);

// For report JSON: {"run": [threads], "phases": [{"phase": 0, "threads": [...]}, ...]}, each
// {"source", "thread", "mean_cpu_pct", "max_cpu_pct", "samples", "process_samples"}; null when
// no process probe sampled the run.
nlohmann::json hot_threads_json(const RunSummary& s, const std::vector<ProbeSample>& samples);

}  // namespace perflab
