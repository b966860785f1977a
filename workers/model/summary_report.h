// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "summary.h"

namespace perflab {

// The one summary of a run, by its kind: HTTP runs get vegeta's report (http_report.h), cache
// runs the cache summary (cache_report.h). `run` prints it, the store keeps it and `show`
// recomputes it from the stored ticks, so the same run gives the same document everywhere.
nlohmann::json summary_json(const RunSummary& summary);
std::string summary_text(const RunSummary& summary);

}  // namespace perflab
