// SPDX-License-Identifier: MIT
#pragma once

// Secrets in specs. An HTTP header value or body, or a Redis password, may name an environment
// variable as ${NAME} ("$${" is a literal "${"). References are resolved only when a run starts,
// so everything PerfLab writes down (the database, QSettings, saved spec files, reports) holds
// the reference, never the value. Credentials given literally are written down masked.

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "spec.h"

namespace perflab {

// What stands in for a literal credential wherever a spec is written down.
inline constexpr std::string_view kMaskedValue = "***";

// Why `text` is not well formed (an unclosed "${", a bad name); empty when it is.
std::string reference_syntax_error(std::string_view text);

// An environment variable's value; nullopt when it is not set.
using Environment = std::function<std::optional<std::string>(const std::string& name)>;
std::optional<std::string> process_environment(const std::string& name);

// A Redis password, a cache run's ("cache.redis.password") or a probe's ("probes[N].password"),
// takes one rule: a literal (written down masked) or text naming variables as ${NAME}. Why
// `text` is not a password (empty, or a reference badly written); empty when it is one.
std::string redis_password_error(std::string_view text);
// The password as AUTH sends it: its references resolved. The mask a stored spec keeps of a
// literal one is refused, as is a variable not set, each an error at `path`.
std::string resolve_redis_password(const std::string& text, const std::string& path,
                                   const Environment& env, std::vector<SpecError>& errors);

// The spec as its requests are sent: every ${NAME} in http header values and bodies replaced
// by the variable's value. Each error names the field and the variable. A credential header
// holding the mask is refused: the value it stood for was never stored, and sending "***"
// would measure a server rejecting the run.
SpecResult resolve_references(const RunSpec& spec, const Environment& env = process_environment);

// A spec's JSON (valid or not) as it may be written down: Authorization, Cookie and
// Proxy-Authorization values and Redis passwords (the cache's and the probes') that name no
// variable become "***".
nlohmann::json masked_for_storage(nlohmann::json spec);

}  // namespace perflab
