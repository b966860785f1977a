// SPDX-License-Identifier: MIT
#pragma once

// The spec's http.session: parsed and checked apart from the rest of the spec, since its
// checks look across the targets and the phases.

#include <nlohmann/json_fwd.hpp>
#include <vector>

#include "spec.h"

namespace perflab {

// The steps of "session"; each problem is added to `errors` naming its field.
std::vector<SessionStep> parse_session(const nlohmann::json& json, std::vector<SpecError>& errors);

// What holds between the session and the rest of the spec: its targets exist, each {{var}} is
// captured by an earlier step, and every phase is closed-model (its users are connections).
void check_session(const RunSpec& spec, std::vector<SpecError>& errors);

nlohmann::json session_json(const std::vector<SessionStep>& session);

}  // namespace perflab
