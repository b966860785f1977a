// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string_view>

#include "import_record.h"

namespace perflab {

// vegeta's results as JSON lines (`vegeta encode --to json`): `timestamp` (RFC 3339),
// `latency` (ns), `code`, `error`, `bytes_in`, `bytes_out`, and in newer versions `method`
// and `url`, which name the op ("GET http://..."); without them every request is op
// "vegeta". Throws ImportError naming the line and field.
// A last line cut short is skipped, and `warn` told.
void read_vegeta(std::istream& in, const RecordSink& sink, const WarningSink& warn = {});

// "2024-05-01T12:00:00.123456789+02:00" (or Z) as µs since the epoch.
std::optional<int64_t> parse_rfc3339_us(std::string_view text);

}  // namespace perflab
