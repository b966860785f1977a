// SPDX-License-Identifier: MIT
#pragma once

#include <istream>
#include <string>
#include <string_view>

namespace perflab {

// SHA-256 in lower-case hex: of what `in` holds to its end (read in pieces), or of `bytes`.
std::string sha256_hex(std::istream& in);
std::string sha256_hex(std::string_view bytes);

}  // namespace perflab
