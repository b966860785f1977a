// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace perflab {

// A run bundle (.perflab): one file with everything stored about some runs (spec with its
// secrets as references, ticks, histograms, host samples, events, notes and tags, SLO and
// search verdicts, agents' shares, hosts' profiles), for another history to store. It is a
// PerfLab database holding only those runs, deflated, behind a header with its SHA-256:
//
//     PERFLAB-BUNDLE 1\n
//     sha256 <hex of everything after this line>\n
//     bytes <the database's size>\n
//     <zlib stream of the database>
//
// Its schema is the writer's: a later PerfLab migrates it as it migrates a history.

// Writes runs `ids` of the database at `db_path` to `path` (replaced whole, or left as it
// was). Throws StoreError for a run that does not exist or is still running, or a file that
// cannot be written.
void export_bundle(const std::string& db_path, const std::vector<int64_t>& ids,
                   const std::string& path);

// Whether `path` starts as a bundle does (any other file is another tool's results).
bool is_bundle(const std::string& path);

struct BundleImport {
    // Each run stored: its id in the bundle, its id here.
    std::vector<std::pair<int64_t, int64_t>> stored;
    // Each run this history already had, the same by its content: its id in the bundle, here.
    std::vector<std::pair<int64_t, int64_t>> already;
    uint64_t requests = 0;  // of the runs stored
};

// Stores the bundle's runs in the database at `db_path` with ids of its own, each with
// `tags` added; a run already stored (same kind, start, spec and summary, or the same
// imported file) is not stored again. All or nothing. Throws ImportError for a file that is
// not a bundle whole (a changed byte, cut short) or holds no run new here, StoreError for the
// database or a bundle from a newer PerfLab.
BundleImport import_bundle(const std::string& db_path, const std::string& path,
                           const std::vector<std::string>& tags = {});

}  // namespace perflab
