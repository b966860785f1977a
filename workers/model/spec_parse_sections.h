// SPDX-License-Identifier: MIT
#pragma once

// The spec's sections, each parsed in a file of its own (spec_parse_cache.cpp,
// spec_parse_http.cpp); spec_parse.cpp puts them together. For those files only.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "spec.h"

namespace perflab::spec_detail {

// "base[i]": an element's path in error messages.
std::string index_path(const std::string& base, size_t i);
std::optional<Endpoint> parse_server(const nlohmann::json& json, const std::string& path,
                                     std::vector<SpecError>& errors);

// read_files false: a stored spec, whose replay file is not read again.
CacheSpec parse_cache(const nlohmann::json& json, std::vector<SpecError>& errors, bool read_files);
// A "keys" or "value_size" object applied over `keys` or `size`: the cache section's over the
// defaults, a phase's over the section's.
void parse_keys(const nlohmann::json& json, const std::string& path, KeySpace& keys,
                std::vector<SpecError>& errors);
void parse_value_size(const nlohmann::json& json, const std::string& path, ValueSize& size,
                      std::vector<SpecError>& errors);
// The phases' own workloads ("workload", "get_ratio", "set_ratio", "keys", "value_size"),
// checked against the cache section once it is parsed (spec_parse_phase_load.cpp).
void parse_phase_loads(const nlohmann::json& phases, RunSpec& spec, std::vector<SpecError>& errors);
HttpSpec parse_http(const nlohmann::json& json, std::vector<SpecError>& errors);

}  // namespace perflab::spec_detail
