// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace perflab {

// Standard Base64 (RFC 4648, with '=' padding).
std::string base64_encode(std::string_view bytes);

}  // namespace perflab
