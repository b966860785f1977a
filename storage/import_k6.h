// SPDX-License-Identifier: MIT
#pragma once

#include <istream>

#include "import_record.h"

namespace perflab {

// k6's `--out json` lines: each `Point` of the metric `http_req_duration` is a request — its
// `value` the latency in ms, its `time` when the request ended (k6 stamps an HTTP request's
// samples with its end), its tags the op (`method` and `name`, else `url`), the `status`
// (0: no response) and `error`; `expected_response` decides success where k6 wrote it, else
// a status from 200 to 399. Every other line (metric declarations, other metrics) is skipped.
// Throws ImportError naming the line and field.
// A last line cut short is skipped, and `warn` told.
void read_k6(std::istream& in, const RecordSink& sink, const WarningSink& warn = {});

}  // namespace perflab
