// SPDX-License-Identifier: MIT
#pragma once

#include <istream>

#include "import_record.h"

namespace perflab {

// A JMeter results file (JTL) in CSV with its header line: the default columns, or any
// subset holding timeStamp (ms since the epoch, the sample's start as JMeter's shipped
// properties write it), elapsed (ms), label, responseCode and success; bytes, sentBytes,
// responseMessage and failureMessage are read when present. Fields are RFC 4180's (a quoted
// field may span lines), split by the character the header has beside timeStamp (JMeter's
// default_delimiter: a comma, a tab, ...). Each label is an op; `success` is the verdict. A
// Transaction Controller's row (no responseCode, responseMessage "Number of samples in
// transaction : ...") is marked a transaction. Throws ImportError naming the line and column,
// or for XML results. A last line cut short is skipped, and `warn` told.
void read_jtl(std::istream& in, const RecordSink& sink, const WarningSink& warn = {});

}  // namespace perflab
