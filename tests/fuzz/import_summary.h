// SPDX-License-Identifier: MIT
// What the importers' targets share: the bytes as the file's stream, and the ticks read
// summed into a run's summary, as storage/run_import.cpp stores them.
#pragma once

#include <istream>
#include <sstream>
#include <string>

#include "fuzz_target.h"
#include "import_record.h"
#include "import_ticks.h"
#include "model/summary.h"

namespace perflab::fuzz {

// Hands every tick `run` drains to a summary, and finishes it.
template <class Run>
void summarise(Run& run, RunKind kind) {
    SummaryBuilder builder(kind);
    run.drain([&](IntervalSample&& s) { builder.add(s); });
    builder.finish(RunStatus::imported);
}

using ReadRecords = void (*)(std::istream&, const RecordSink&, const WarningSink&);

// A record-streaming importer's records into one-second ticks. ImportError is what the
// importers and ImportTicks document for bad content; anything else gets through.
inline void import_records(const uint8_t* data, size_t size, ReadRecords read) {
    std::istringstream in(text_of(data, size));
    ImportTicks ticks;
    const RecordSink sink = [&](ImportRecord&& r) { ticks.add(r); };
    try {
        read(in, sink, {});
    } catch (const ImportError&) {
        return;
    }
    summarise(ticks, RunKind::http);
}

}  // namespace perflab::fuzz
