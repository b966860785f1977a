// SPDX-License-Identifier: MIT
#pragma once

namespace perflab {

// `perflab agent`: the headless load generator a controller starts over SSH. Says hello with
// its version, answers clock pings, takes one assignment (its share of the spec and the start
// time on its own steady clock), runs it and writes its ticks as records (agent_protocol.h)
// to `out_fd`. Stops when told, or when `in_fd` closes: a controller that dies or a dropped
// connection leaves nothing running. Returns the process's exit code.
int run_agent(int in_fd, int out_fd);

}  // namespace perflab
