// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/probe_sample.h"
#include "model/summary.h"

namespace perflab {

// One series of a prometheus probe ("prom.nginx_connections_active") over a span of a run:
// the mean and the most of its samples whose tick ended in (from_ms, to_ms], gaps left out.
struct PromFigure {
    std::string source;  // "prometheus http://127.0.0.1:9113/metrics"
    std::string key;     // as the sample's values name it (probes/prom_series.h)
    double mean = 0;
    double max = 0;
    int samples = 0;
};

// Every series any prometheus sample of the span has, by source then key.
std::vector<PromFigure> prometheus_figures(const std::vector<ProbeSample>& samples, int64_t from_ms,
                                           int64_t to_ms);

// For report JSON: {"run": [figures], "phases": [{"phase": 0, "series": [figures]}, ...]},
// each figure {"source", "series", "mean", "max", "samples"}; null when no prometheus probe
// sampled the run.
nlohmann::json prometheus_json(const RunSummary& s, const std::vector<ProbeSample>& samples);

// Whether a comparison's figure is a series' ("prometheus URL series mean", per phase "p2.
// prometheus ..."): its value is the exporter's, of any size, shown as the report shows it.
bool is_prometheus_figure(const std::string& name);

// Every probe sample, one row per value: t_ms,source,kind,gap,key,value (RFC 4180; a gap is
// one row with empty key and value). `perflab export --format probes-csv`.
std::string probes_csv(const std::vector<ProbeSample>& samples);

}  // namespace perflab
