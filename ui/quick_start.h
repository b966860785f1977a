// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "model/spec.h"

namespace perflab {

// The first-start demo: a short cache-aside run (closed model, a constant rate, then a ramp)
// against a memcached at `server`, probing this machine and that memcached.
RunSpec quick_start_spec(const std::string& server, int seconds);

}  // namespace perflab
