// SPDX-License-Identifier: MIT
#include "base64.h"

#include <cstdint>

namespace perflab {

std::string base64_encode(std::string_view bytes) {
    static constexpr char kDigits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    uint32_t acc = 0;
    int bits = 0;
    for (const unsigned char c : bytes) {
        acc = (acc << 8) | c;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out.push_back(kDigits[(acc >> bits) & 63]);
        }
    }
    if (bits > 0) out.push_back(kDigits[(acc << (6 - bits)) & 63]);
    while (out.size() % 4)
        out.push_back('=');
    return out;
}

}  // namespace perflab
