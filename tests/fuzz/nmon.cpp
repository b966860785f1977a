// SPDX-License-Identifier: MIT
// An nmon capture read into host samples, as `perflab import-host` reads it.
#include <sstream>

#include "fuzz_target.h"
#include "import_nmon.h"
#include "import_record.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(perflab::fuzz::text_of(data, size));
    try {
        perflab::read_nmon(in);
    } catch (const perflab::ImportError&) {
    }
    return 0;
}
