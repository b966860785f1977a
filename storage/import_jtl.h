// SPDX-License-Identifier: MIT
#pragma once

#include <istream>

#include "import_record.h"

namespace perflab {

// A JMeter results file (JTL) in CSV with its header line: the default columns, or any
// subset holding timeStamp (ms since the epoch, the sample's start as JMeter's shipped
// properties write it), elapsed (ms), label, responseCode and success; bytes, sentBytes,
// responseMessage and failureMessage are read when present. Each label is an op. Throws
// ImportError naming the line and column.
// A last line cut short is skipped, and `warn` told.
void read_jtl(std::istream& in, const RecordSink& sink, const WarningSink& warn = {});

}  // namespace perflab
