// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace perflab {

// What `perflab --version` prints: the version, the commit it was built from ("unknown"
// outside git), the build type, and the version of each library as loaded at run time (the
// headers' for header-only Boost), which is what a bug report needs when a distribution
// updates one of them under the binary.
std::string version_text();

}  // namespace perflab
