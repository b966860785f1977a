// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "run_store.h"

namespace perflab {

// One stored run, ready to print: what it was, where it ran, what it measured.
struct RunReport {
    RunInfo info;
    nlohmann::json spec;
    RunSummary summary;  // over the window when one was asked for
    Window window;
    std::vector<StoredHost> hosts;
    std::vector<RunEvent> events;
    std::vector<ProbeSample> probes;  // the servers' and hosts' samples, for their summary
    // A run that agents sent: each tick's {t_ms, interval_ms, phase, drain, agents} with each
    // agent's part (agent_ticks.h); an empty array otherwise.
    nlohmann::json agent_ticks = nlohmann::json::array();
    // Per label, another tool's transactions in the window (JMeter's Transaction Controller,
    // imported): never requests; empty for every other run.
    std::map<std::string, OpSample> transactions;
};

RunReport load_report(RunStore& store, int64_t id, const Window& window = {});

// `perflab show`: a header, the machine, then the run's summary_text (summary_report.h).
std::string report_text(const RunReport& report);
// A run's verdict in a word: "PASS" or "FAIL" against its slo, "max:412/s" (or "FAIL") for a
// search, "-" without either.
std::string verdict_text(const RunInfo& run);
// `perflab show --json`: {"run", "window", "spec", "summary", "hosts", "events"}; "summary" is
// the run's summary_json, what `run --json` printed. A run that agents sent adds "agents" and
// "agent_ticks" (RunReport::agent_ticks). "transactions": per label {"count", "errors",
// "latency_us"} (an empty object for a run without transactions).
nlohmann::json report_json(const RunReport& report);
// Per label {"count", "errors", "latency_us": latency_json}: a run's or a tick's transactions.
nlohmann::json transactions_json(const std::map<std::string, OpSample>& transactions);
// A chart the report shows: an image file at `path`, relative to the report.
struct ReportChart {
    std::string title;
    std::string path;
};
std::string report_markdown(const RunReport& report, const std::vector<ReportChart>& images = {});
std::string report_html(const RunReport& report, const std::vector<ReportChart>& images = {});
// The HTML report in parts, each a fragment that stands on its own (a heading with what it
// heads): report_html joins them in its order, the PDF report lays them out in its own, the
// summary first and never splitting a part that fits on a page.
struct ReportHtmlParts {
    std::string style;  // the CSS the parts are written for
    std::string title;  // the <h1>
    // Status, the verdict with each SLO check, the key figures, a search's answer.
    std::string summary;
    std::string facts;
    std::vector<std::string> machines;
    std::vector<std::string> phases;           // each phase's figures, then the run's
    std::string transactions;                  // empty when the run has none
    std::string nodes;                         // a Redis Cluster's; empty for other runs
    std::string agents, servers, slo, search;  // empty when the run has none
    std::string spec, events;                  // empty when the run has none
};
ReportHtmlParts report_html_parts(const RunReport& report);

// The per-tick table, one row per tick: totals, then count/errors/p50/p99 per op, then per
// transaction label ("transaction LABEL_count", ...). Hits, misses and hit rate only for cache
// runs; the redirections (moved, ask) for a Redis Cluster run and a run that had any.
std::string ticks_csv(const std::vector<IntervalSample>& samples, RunKind kind,
                      bool redis_cluster = false);

// Everything stored about a run: the report, every tick with its encoded histograms
// (base64) and, where the report tells them, its redirections and cluster nodes, every probe
// sample.
nlohmann::json export_json(RunStore& store, int64_t id);

// "2026-11-30 13:31:59" (UTC).
std::string format_wall(int64_t ms_since_epoch);
std::string profile_text(const HardwareProfile& profile);

}  // namespace perflab
