// SPDX-License-Identifier: MIT
// The spec parser on any JSON document: a spec or its errors, never an exception. A spec it
// accepts must read back the same from its normalised form, as spec.h promises of to_json.
#include "model/spec.h"

#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto json = nlohmann::json::parse(data, data + size, nullptr, false);
    if (json.is_discarded()) return 0;
    const perflab::SpecResult parsed = perflab::parse_spec(json);
    if (!parsed) return 0;
    const nlohmann::json normal = perflab::to_json(*parsed.spec);
    const perflab::SpecResult again = perflab::parse_spec(normal);
    if (!again || perflab::to_json(*again.spec) != normal) {
        std::fprintf(stderr, "a spec does not read back from %s:\n%s\n", normal.dump().c_str(),
                     again.error_text().c_str());
        std::abort();
    }
    return 0;
}
