// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace perflab {

struct StoredRun;

// The run's report at `path`, Markdown (.md) or HTML (.html), with its charts drawn as the
// history shows them and saved as PNG files in a folder beside it (report.md →
// report_files/), which the report references by relative paths. Runs on the GUI thread
// (it draws); reads nothing from the store.
bool write_run_report(const StoredRun& run, const QString& path, QString* error);

// The per-tick table: one row per stored tick.
bool write_ticks_csv(const StoredRun& run, const QString& path, QString* error);

// Every tick's latency histograms as an HdrHistogram interval log (hlog_export.h).
bool write_hlog(const StoredRun& run, const QString& path, QString* error);

}  // namespace perflab
