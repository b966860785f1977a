// SPDX-License-Identifier: MIT
#pragma once

namespace perflab {

// Runs the desktop app until its window closes; the only place a QApplication is made, so
// the CLI subcommands stay headless.
int gui_main(int argc, char** argv);

}  // namespace perflab
