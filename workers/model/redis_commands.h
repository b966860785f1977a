// SPDX-License-Identifier: MIT
#pragma once

// The spec's cache.commands (protocol "redis"): Redis command lines of the user's choice, each
// word a template (template_syntax.h, TemplateUse::redis_command). Parsed and checked here;
// workers/cache/command_program compiles them for the engine.

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "spec.h"

namespace perflab {

// The words of a command line, split as redis-cli splits what is typed: at spaces and tabs,
// except inside "{{...}}" ("{{uniform 1 9}}" is one word) and inside double quotes ("full name"
// is one word; \" and \\ escape within them). Empty, with `error` set, when a quote or a "{{"
// is not closed.
std::vector<std::string> command_words(std::string_view line, std::string& error);

// The commands of "commands" (an array of {"cmd", "weight", "name"}); each problem is added
// to `errors`, naming the command's index and field.
std::vector<RedisCommandSpec> parse_commands(const nlohmann::json& json,
                                             std::vector<SpecError>& errors);
nlohmann::json commands_json(const std::vector<RedisCommandSpec>& commands);

// Each command's op name: its "name", else its command word lowercased, made unique with _2,
// _3, ... in the order given (two HSETs: "hset", "hset_2").
std::vector<std::string> command_op_names(const std::vector<RedisCommandSpec>& commands);

}  // namespace perflab
