// SPDX-License-Identifier: MIT
#pragma once

#include <vector>

namespace perflab {

// An option of the desktop app (`perflab gui --NAME [VALUE]`): one table for the window's
// parser and for `perflab gui --help`.
struct GuiOption {
    const char* name;
    const char* value;  // the value's name; null for a flag
    const char* help;
};
const std::vector<GuiOption>& gui_options();

// Runs the desktop app until its window closes; the only place a QApplication is made, so
// the CLI subcommands stay headless.
int gui_main(int argc, char** argv);

}  // namespace perflab
