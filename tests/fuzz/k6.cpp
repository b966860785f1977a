// SPDX-License-Identifier: MIT
// k6's JSON lines read into ticks and a summary, as `perflab import` reads them.
#include "fuzz_target.h"
#include "import_k6.h"
#include "import_summary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    perflab::fuzz::import_records(data, size, perflab::read_k6);
    return 0;
}
