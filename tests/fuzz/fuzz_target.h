// SPDX-License-Identifier: MIT
// What every fuzz target defines: libFuzzer's entry point, called once per input. A target
// returns 0 for any input; a crash, an abort, a sanitizer report or an exception it does not
// expect (one its API does not document) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace perflab::fuzz {

inline std::string text_of(const uint8_t* data, size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

}  // namespace perflab::fuzz
