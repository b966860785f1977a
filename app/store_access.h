// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "run_store.h"

namespace perflab {

// The database a command uses: --db PATH, else the default one.
std::string database_path(const std::string& option);

// "10s", "1m30s", "500ms", "2d", "90" (seconds) -> milliseconds; nullopt when malformed.
std::optional<int64_t> parse_duration_ms(const std::string& text);

// Why a time `what` (--from, --to, note --at) of `t_ms` on the run's clock lies outside the
// run, naming the run's span; empty when it lies within, or the run has not ended. A window's
// start at the run's very end holds no tick: `before_end` refuses it too.
std::string outside_run(const RunInfo& run, int64_t t_ms, const std::string& what,
                        bool before_end = false);

// Prints "perflab: <message>" on stderr and returns kExitBadInput.
int bad_input(const std::string& message);

// Writes text to a file, or to stdout when path is empty; false (with a message) on failure.
bool write_output(const std::string& path, const std::string& text);

}  // namespace perflab
