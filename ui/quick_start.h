// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "model/spec.h"

namespace perflab {

// The first-start demo: a short cache-aside run (closed model, a constant rate, then a ramp)
// against a memcached at `server`, probing this machine and that memcached.
RunSpec quick_start_spec(const std::string& server, int seconds);

// The Redis quick start: `redis_template` (resources/specs/redis-cache-aside.json) against
// the redis-server at `server`, its phases sharing `seconds`, probing this machine and that
// Redis. Throws std::logic_error when the template does not make a valid spec.
RunSpec redis_quick_start_spec(nlohmann::json redis_template, const std::string& server,
                               int seconds);

// The form a first start shows: the quick start's 30-s run with no server yet, so Start
// waits until the user names one (the Quick start button brings its own).
nlohmann::json first_form_json();

}  // namespace perflab
