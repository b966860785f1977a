// SPDX-License-Identifier: MIT
#pragma once

// The small JSONPath subset response checks use: "$", then ".name", "['name']" or "[index]"
// steps, e.g. "$.items[0].id".

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace perflab {

using JsonPath = std::vector<std::variant<std::string, size_t>>;

// nullopt, with `error` set, when `text` is not such a path.
std::optional<JsonPath> parse_json_path(const std::string& text, std::string& error);

// The value at `path` in `doc`; null when there is none.
const nlohmann::json* find_json(const nlohmann::json& doc, const JsonPath& path);

}  // namespace perflab
