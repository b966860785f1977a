// SPDX-License-Identifier: MIT
// vegeta's JSON lines read into ticks and a summary, as `perflab import` reads them.
#include "fuzz_target.h"
#include "import_summary.h"
#include "import_vegeta.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    perflab::fuzz::import_records(data, size, perflab::read_vegeta);
    return 0;
}
