// SPDX-License-Identifier: MIT
// JMeter's CSV results (a JTL) read into ticks and a summary, as `perflab import` reads them.
#include "fuzz_target.h"
#include "import_jtl.h"
#include "import_summary.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    perflab::fuzz::import_records(data, size, perflab::read_jtl);
    return 0;
}
