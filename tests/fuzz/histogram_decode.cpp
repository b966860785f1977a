// SPDX-License-Identifier: MIT
// Histogram::decode on any bytes (a stored tick's, an agent's): a histogram or nullopt. One it
// accepts must answer a report's questions and encode to bytes that decode to it again.
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "fuzz_target.h"
#include "model/histogram.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto h = perflab::Histogram::decode({reinterpret_cast<const char*>(data), size});
    if (!h) return 0;
    h->percentile(50);
    h->percentile(99.99);
    const auto again = perflab::Histogram::decode(h->encode());
    if (!again || !(*again == *h)) {
        std::fprintf(stderr, "a decoded histogram does not encode to itself\n");
        std::abort();
    }
    return 0;
}
