// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "import_span.h"

namespace perflab {

struct ImportOptions {
    std::string file;
    std::string name;  // empty: the file's name
    std::vector<std::string> tags;
    std::string format = "auto";  // auto, jtl, vegeta, k6, memtier, hlog or bundle
    // The longest time the file's requests may spread over (import_span.h).
    int64_t max_span_s = kImportMaxSpanS;
    // Called now and then from the reading thread with the share of the file read, 0..1.
    std::function<void(double)> progress;
};

struct ImportResult {
    int64_t run_id = 0;  // the first run stored
    // Every run stored: a bundle (run_bundle.h) holds several.
    std::vector<int64_t> run_ids;
    std::string format;  // the one read: jtl, vegeta, k6, memtier, hlog or bundle
    uint64_t requests = 0;
    // What was skipped (a last line cut short), also in the run's notes.
    std::vector<std::string> warnings;
    // How the file's rows were counted where a user could think otherwise (transactions kept
    // apart, a tool's verdict over a status code), also in the run's notes.
    std::vector<std::string> remarks;
};

// Reads another tool's results (a JMeter JTL in CSV, vegeta's or k6's JSON lines, an
// HdrHistogram interval log, memtier_benchmark's JSON) and stores them as a run with status
// `imported`: one-second ticks (the log's own intervals for an .hlog), one op per target, label
// or tag, its summary and key figures, so runs, show (windows too), compare and export treat it
// as any run. memtier's ticks have counts but no latencies: its run is summary only (no
// window of it can be analysed). The tool and file are
// in its notes, the file's SHA-256 with the run: the same file is refused a second time.
// Nothing is stored unless the whole file reads. Throws ImportError for bad content,
// StoreError for the database, std::runtime_error for a file that cannot be opened, holds no
// request or was imported before. A PerfLab bundle stores its runs as import_bundle does,
// each with `tags`; it takes no `name`.
ImportResult import_run(const std::string& db_path, const ImportOptions& options);

}  // namespace perflab
