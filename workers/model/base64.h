// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace perflab {

// Standard Base64 (RFC 4648, with '=' padding).
std::string base64_encode(std::string_view bytes);
// Standard alphabet, padding optional; nullopt for any other character.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace perflab
