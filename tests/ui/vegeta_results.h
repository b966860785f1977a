// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace perflab::test {

// `requests` lines of vegeta's JSON output, 200s of 1 ms and more, ten a second from
// 2026-12-01T09:00:00.5Z: a results file for File → Import results….
inline std::string vegeta_results(int requests) {
    std::string lines;
    for (int i = 0; i < requests; ++i)
        lines += R"({"attack":"a","seq":)" + std::to_string(i) +
                 R"(,"code":200,"timestamp":"2026-12-01T09:00:0)" + std::to_string(i / 10) +
                 R"(.5Z","latency":)" + std::to_string(1'000'000 + i * 1000) +
                 R"(,"bytes_out":0,"bytes_in":2,"error":"","method":"GET","url":"http://x/"})" +
                 "\n";
    return lines;
}

}  // namespace perflab::test
