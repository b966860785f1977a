// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace perflab {

struct StoredRun;

// The run's report at `path`, with its charts drawn as the history shows them: Markdown
// (.md) with the charts as PNG files in a folder beside it (report.md → report_files/),
// referenced by relative paths; HTML (.html), one self-contained file with the charts inline;
// or PDF (.pdf), titled with the run. Runs on the GUI thread (it draws); reads nothing from
// the store.
bool write_run_report(const StoredRun& run, const QString& path, QString* error);

// The per-tick table: one row per stored tick.
bool write_ticks_csv(const StoredRun& run, const QString& path, QString* error);

// Every tick's latency histograms as an HdrHistogram interval log (hlog_export.h).
bool write_hlog(const StoredRun& run, const QString& path, QString* error);

}  // namespace perflab
