// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace perflab {

// The database a command uses: --db PATH, else the default one.
std::string database_path(const std::string& option);

// "10s", "1m30s", "500ms", "90" (seconds) -> milliseconds; nullopt when malformed.
std::optional<int64_t> parse_duration_ms(const std::string& text);

// Prints "perflab: <message>" on stderr and returns kExitBadInput.
int bad_input(const std::string& message);

// Writes text to a file, or to stdout when path is empty; false (with a message) on failure.
bool write_output(const std::string& path, const std::string& text);

}  // namespace perflab
