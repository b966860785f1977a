// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace perflab {

struct ImportOptions {
    std::string file;
    std::string name;  // empty: the file's name
    std::vector<std::string> tags;
    std::string format = "auto";  // auto, jtl or vegeta
};

struct ImportResult {
    int64_t run_id = 0;
    std::string format;  // the one read: jtl or vegeta
    uint64_t requests = 0;
};

// Reads another tool's results (a JMeter JTL in CSV, vegeta's JSON lines) and stores them as
// an http run: one-second ticks, one op per target or label, its summary and key figures, so
// runs, show (windows too), compare and export treat it as any run. The tool and file are in
// its notes. Nothing is stored unless the whole file reads. Throws ImportError for bad
// content, StoreError for the database, std::runtime_error for a file that cannot be opened
// or holds no request.
ImportResult import_run(const std::string& db_path, const ImportOptions& options);

}  // namespace perflab
