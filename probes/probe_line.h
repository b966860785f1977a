// SPDX-License-Identifier: MIT
#pragma once

#include <string>

#include "model/probe_sample.h"

namespace perflab {

// One tick of a probe as the field's own tools print it (nmon, memcached-top, jstat):
//   00:00:05 local cpu:52.1% us:50.3 sy:1.8 wa:0.0 st:0.0 load:1.02 run:2 mem:1.21g/23.5g ...
// A gap reads "-- no data --".
std::string probe_line(const ProbeSample& sample);

}  // namespace perflab
