// SPDX-License-Identifier: MIT
// The lean HTTP/1 response parser against Beast's, on any bytes a server could send, read in
// reads of the size the input's first byte sets (its top bit: the request was a HEAD). Where
// Beast reads a response, the lean parser must read the same one (status, body, keep-alive,
// a captured header) and leave the next at the same byte; where Beast refuses, the lean
// parser may refuse or read, but must not crash.
#include <cstdio>
#include <cstdlib>

#include "../support/response_readers.h"
#include "fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const std::string_view stream(reinterpret_cast<const char*>(data) + 1, size - 1);
    const size_t read_size = size_t(data[0] & 0x7f) + 1;
    const bool head = data[0] & 0x80;
    size_t beast_pos = 0, lean_pos = 0;
    while (beast_pos < stream.size()) {
        const auto want =
            perflab::testing::beast_read(stream, beast_pos, read_size, head, "Location", 16);
        if (!want.complete) return 0;
        const auto got =
            perflab::testing::lean_read(stream, lean_pos, read_size, head, "Location", 16);
        if (got != want || lean_pos != beast_pos) {
            std::fprintf(stderr, "lean: complete %d status %d body %zu keep-alive %d at %zu\n",
                         got.complete, got.status, got.body.size(), got.keep_alive, lean_pos);
            std::fprintf(stderr, "beast: status %d body %zu keep-alive %d at %zu\n", want.status,
                         want.body.size(), want.keep_alive, beast_pos);
            std::abort();
        }
        if (!want.keep_alive) return 0;
    }
    return 0;
}
