// SPDX-License-Identifier: MIT
// An HdrHistogram interval log read, its histograms decoded as its ticks drain into a
// summary, as `perflab import` reads it.
#include <optional>
#include <sstream>

#include "fuzz_target.h"
#include "import_hlog.h"
#include "import_summary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(perflab::fuzz::text_of(data, size));
    std::optional<perflab::HlogRun> run;
    try {
        run = perflab::read_hlog(in);
    } catch (const perflab::ImportError&) {
        return 0;
    }
    bool cache = true;  // a log of gets and sets is a cache run's, as run_import.cpp decides
    for (const auto& op : run->ops())
        cache = cache && (op == "get" || op == "set");
    perflab::fuzz::summarise(*run, cache ? perflab::RunKind::cache : perflab::RunKind::http);
    return 0;
}
