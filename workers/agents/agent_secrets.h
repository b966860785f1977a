// SPDX-License-Identifier: MIT
#pragma once

#include "model/secrets.h"

namespace perflab {

// The spec as the controller hands it to its agents: every ${NAME} resolved here, from the
// controller's environment (an agent host's sshd environment is another, or has none), each
// value written back with "${" as "$${", so that the agent's own resolving (make_engine) gives
// the value back exactly and reads no variable of its host. Errors as resolve_references'.
// The result holds secrets: it goes to the agents over their SSH channels only.
SpecResult spec_for_agents(const RunSpec& spec, const Environment& env = process_environment);

}  // namespace perflab
