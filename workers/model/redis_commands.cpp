// SPDX-License-Identifier: MIT
#include "redis_commands.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <set>

#include "json_reader.h"
#include "template_syntax.h"

namespace perflab {

namespace {

constexpr size_t kMaxNameBytes = 64;
constexpr int64_t kMaxWeight = 1'000'000;
constexpr const char* kExample = "a Redis command such as \"HSET {{key}} f {{value}}\"";

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool blank(std::string_view s) {
    return std::all_of(s.begin(), s.end(), is_space);
}

// "" when every word of `line` is a template a command can be rendered from, else why not,
// naming the word.
std::string line_error(const std::string& line) {
    std::string error;
    const auto words = command_words(line, error);
    if (!error.empty()) return error;
    if (words.empty()) return std::string("empty: expected ") + kExample;
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string word = "word " + std::to_string(i + 1);
        if (blank(words[i])) return word + " is empty or only whitespace";
        parse_template(words[i], error, TemplateUse::redis_command);
        if (!error.empty()) return word + " (" + words[i] + "): " + error;
        // The op is named after it, and a server is asked for it by name.
        if (i == 0 && looks_templated(words[i]))
            return word + " (" + words[i] + "): the command's name cannot be a template";
    }
    return "";
}

RedisCommandSpec parse_command(const nlohmann::json& json, const std::string& path,
                               std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    RedisCommandSpec c;
    if (!r.is_object()) return c;
    r.allow_only({"cmd", "weight", "name"});
    if (auto v = r.string("cmd")) {
        c.cmd = *v;
        if (auto why = line_error(*v); !why.empty()) r.error(r.path("cmd"), why);
    } else if (!r.has("cmd")) {
        r.error(r.path("cmd"), std::string("required: ") + kExample);
    }
    if (auto v = r.integer("weight", 1, kMaxWeight)) c.weight = uint32_t(*v);
    if (auto v = r.string("name")) {
        if (v->empty() || v->size() > kMaxNameBytes || std::any_of(v->begin(), v->end(), is_space))
            r.error(r.path("name"), "expected 1 to 64 characters without whitespace");
        else
            c.name = *v;
    }
    return c;
}

std::string lowercase(std::string s) {
    for (auto& c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

std::vector<std::string> command_words(std::string_view line, std::string& error) {
    error.clear();
    std::vector<std::string> words;
    std::string word;
    bool in_word = false, quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (line.substr(i, 2) == "{{") {
            const size_t close = line.find("}}", i + 2);
            if (close == std::string_view::npos) {
                error = "unclosed \"{{\"";
                return {};
            }
            word.append(line.substr(i, close + 2 - i));
            in_word = true;
            i = close + 1;
        } else if (quoted && c == '\\' && i + 1 < line.size() &&
                   (line[i + 1] == '"' || line[i + 1] == '\\')) {
            word += line[++i];
        } else if (c == '"') {
            quoted = !quoted;
            in_word = true;
        } else if (!quoted && is_space(c)) {
            if (in_word) words.push_back(std::move(word));
            word.clear();
            in_word = false;
        } else {
            word += c;
            in_word = true;
        }
    }
    if (quoted) {
        error = "unclosed quote";
        return {};
    }
    if (in_word) words.push_back(std::move(word));
    return words;
}

std::vector<RedisCommandSpec> parse_commands(const nlohmann::json& json,
                                             std::vector<SpecError>& errors) {
    const std::string path = "cache.commands";
    std::vector<RedisCommandSpec> out;
    if (!json.is_array() || json.empty()) {
        errors.push_back({path,
                          "expected a non-empty array of {\"cmd\": \"HSET {{key}} f "
                          "{{value}}\", \"weight\": 1}"});
        return out;
    }
    for (size_t i = 0; i < json.size(); ++i) {
        const std::string at = path + "[" + std::to_string(i) + "]";
        out.push_back(parse_command(json[i], at, errors));
        for (size_t k = 0; k < i; ++k)
            if (!out[i].name.empty() && out[i].name == out[k].name)
                errors.push_back({at + ".name", "\"" + out[i].name + "\" names commands[" +
                                                    std::to_string(k) + "] already"});
    }
    return out;
}

nlohmann::json commands_json(const std::vector<RedisCommandSpec>& commands) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& c : commands) {
        nlohmann::json j = {{"cmd", c.cmd}, {"weight", c.weight}};
        if (!c.name.empty()) j["name"] = c.name;
        out.push_back(std::move(j));
    }
    return out;
}

std::vector<std::string> command_op_names(const std::vector<RedisCommandSpec>& commands) {
    std::vector<std::string> names(commands.size());
    std::set<std::string> taken;
    for (size_t i = 0; i < commands.size(); ++i)
        if (!commands[i].name.empty()) taken.insert(names[i] = commands[i].name);
    for (size_t i = 0; i < commands.size(); ++i) {
        if (!names[i].empty()) continue;
        std::string error;
        const auto words = command_words(commands[i].cmd, error);
        const std::string base = words.empty() ? "command" : lowercase(words[0]);
        std::string name = base;
        for (int n = 2; taken.count(name); ++n)
            name = base + "_" + std::to_string(n);
        taken.insert(names[i] = name);
    }
    return names;
}

}  // namespace perflab
