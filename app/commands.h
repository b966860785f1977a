// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "model/spec.h"

namespace perflab {

// Exit codes of every command.
constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;    // the run itself failed (server unreachable at start...)
constexpr int kExitBadInput = 2;  // a bad spec, option, file or id: nothing was run

struct RunOptions {
    std::string spec_path;
    bool json = false;   // summary as JSON on stdout; ticks go to stderr
    bool quiet = false;  // no tick lines
};

int run_command(const RunOptions& options);
// Runs an already parsed spec with the console observer; shared by `run` and `demo`.
int run_spec(const RunSpec& spec, const RunOptions& options);

struct DemoOptions {
    int seconds = 10;
};

int demo_command(const DemoOptions& options);

}  // namespace perflab
