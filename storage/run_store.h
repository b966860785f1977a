// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "database.h"
#include "model/probe_sample.h"
#include "model/summary.h"
#include "remote/hardware_profile.h"
#include "sample_rows.h"

namespace perflab {

// A run as the history lists it.
struct RunInfo {
    int64_t id = 0;
    std::string name;
    std::string kind;
    std::string status;
    std::string error;
    int64_t started_at_ms = 0;  // wall clock, ms since the epoch
    int64_t ended_at_ms = 0;    // 0 while running
    std::vector<std::string> tags;
    std::string notes;
    KeyFigures figures;
    std::optional<SloVerdict> slo;       // its verdict, when its spec had an slo
    std::optional<SearchResult> search;  // what its spec's search found
    // Its ticks carry counts but no latency histograms (imported from a tool's summary).
    bool summary_only = false;
};

struct StoredHost {
    std::string role;  // "client", "server"...
    HardwareProfile profile;
};

struct RunFilter {
    std::string kind;
    std::string tag;
    std::string name;  // a substring
};

// Ticks whose middle lies in (from_ms, to_ms] on the run's clock (for_each_sample).
struct Window {
    int64_t from_ms = -1;
    int64_t to_ms = std::numeric_limits<int64_t>::max();
    bool whole() const { return from_ms < 0 && to_ms == std::numeric_limits<int64_t>::max(); }
};

// A reader (and editor) of the history on its own connection. Opening marks runs whose
// writer process is gone as `interrupted`, with a summary rebuilt from their stored ticks,
// and computes again the key figures of runs stored under older definitions of them.
class RunStore {
  public:
    RunStore(const std::string& path, Access access);

    std::vector<RunInfo> list(const RunFilter& filter = {});
    // Throws StoreError "no run ID in PATH" for an unknown id.
    RunInfo info(int64_t id);
    nlohmann::json spec(int64_t id);
    std::vector<IntervalSample> samples(int64_t id, const Window& window = {});
    // The run's summary rebuilt from its stored ticks (SummaryBuilder), for a window or all.
    // Throws StoreError for a window of a summary-only run, whose ticks have no latencies.
    RunSummary summary(int64_t id, const Window& window = {});
    std::vector<RunEvent> events(int64_t id);
    std::vector<ProbeSample> probe_samples(int64_t id);
    std::vector<StoredHost> hosts(int64_t id);

    void remove(int64_t id);
    void add_note(int64_t id, const std::string& text);
    // A `note` event at t_ms on the run's clock: drawn on its time axis, listed in its report.
    void annotate(int64_t id, int64_t t_ms, const std::string& text);
    void add_tag(int64_t id, const std::string& tag);
    // The GUI edits notes as one text (add_note appends a line) and takes tags away.
    void set_notes(int64_t id, const std::string& text);
    void remove_tag(int64_t id, const std::string& tag);
    // The run becomes the baseline of the runs named as it is: tagged "baseline", the tag
    // taken off any other run of that name.
    void set_baseline(int64_t id);
    // The baseline of the runs named `name`, if one is set.
    std::optional<int64_t> baseline_of(const std::string& name);

    const std::string& path() const { return path_; }
    Connection& connection() { return *db_; }

  private:
    void mark_interrupted();
    void refresh_figures();
    bool final_histograms(int64_t id, RunSummary& summary);
    std::vector<RunInfo> query(const std::string& where, int64_t id, const RunFilter& filter);

    std::string path_;
    std::unique_ptr<Connection> db_;
};

}  // namespace perflab
