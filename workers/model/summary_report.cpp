// SPDX-License-Identifier: MIT
#include "summary_report.h"

#include <nlohmann/json.hpp>

#include "cache_report.h"
#include "http_report.h"

namespace perflab {

nlohmann::json summary_json(const RunSummary& s) {
    nlohmann::json j = s.kind == RunKind::http ? http_report_json(s) : cache_report_json(s);
    if (s.slo) j["slo"] = to_json(*s.slo);
    if (s.search) j["search"] = to_json(*s.search);
    return j;
}

std::string summary_text(const RunSummary& s) {
    return s.kind == RunKind::http ? http_report_text(s) : cache_report_text(s);
}

}  // namespace perflab
