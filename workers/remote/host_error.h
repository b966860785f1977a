// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>

namespace perflab {

// A host that cannot be reached or read: a bad target, a refused key, a lost session, a file of
// /proc that is not there. The message names what failed; the CLI exits 2 on it.
class HostError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

}  // namespace perflab
