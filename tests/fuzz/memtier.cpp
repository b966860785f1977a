// SPDX-License-Identifier: MIT
// memtier_benchmark's JSON read into ticks and a summary, as `perflab import` reads it.
#include <sstream>

#include "fuzz_target.h"
#include "import_memtier.h"
#include "import_summary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(perflab::fuzz::text_of(data, size));
    perflab::MemtierRun run;
    try {
        run = perflab::read_memtier(in);
    } catch (const perflab::ImportError&) {
        return 0;
    }
    perflab::SummaryBuilder builder(perflab::RunKind::cache);
    for (const auto& s : run.ticks)
        builder.add(s);
    builder.finish(perflab::RunStatus::imported);
    return 0;
}
