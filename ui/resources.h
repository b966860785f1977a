// SPDX-License-Identifier: MIT
#pragma once

namespace perflab {

// Registers resources/perflab.qrc (run spec templates): a static library's resources must be
// initialised by name before first use.
void init_resources();

}  // namespace perflab
