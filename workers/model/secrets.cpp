// SPDX-License-Identifier: MIT
#include "secrets.h"

#include <strings.h>

#include <cstdlib>
#include <vector>

namespace perflab {

namespace {

constexpr const char* kCredentialHeaders[] = {"Authorization", "Cookie", "Proxy-Authorization"};

// A value split into literal text and variable names, in order.
struct Piece {
    bool variable = false;
    std::string text;  // the literal text, or the variable's name
};

bool is_name(std::string_view name) {
    if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
    for (const char c : name)
        if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
              (c >= '0' && c <= '9')))
            return false;
    return true;
}

std::vector<Piece> split(std::string_view text, std::string* error) {
    std::vector<Piece> pieces;
    const auto literal = [&pieces](std::string_view s) {
        if (pieces.empty() || pieces.back().variable) pieces.push_back({false, {}});
        pieces.back().text += s;
    };
    size_t i = 0;
    while (i < text.size()) {
        if (text.substr(i, 3) == "$${") {
            literal("${");
            i += 3;
        } else if (text.substr(i, 2) == "${") {
            const size_t close = text.find('}', i + 2);
            if (close == std::string_view::npos) {
                *error = "\"${\" without its closing \"}\" (write $${ for a literal ${)";
                return {};
            }
            const std::string_view name = text.substr(i + 2, close - i - 2);
            if (!is_name(name)) {
                *error = "\"${" + std::string(name) +
                         "}\" does not name an environment variable (letters, digits and _; "
                         "write $${ for a literal ${)";
                return {};
            }
            pieces.push_back({true, std::string(name)});
            i = close + 1;
        } else {
            literal(text.substr(i, 1));
            ++i;
        }
    }
    return pieces;
}

bool names_a_variable(std::string_view text) {
    std::string error;
    for (const Piece& p : split(text, &error))
        if (p.variable) return true;
    return false;
}

bool is_credential(const std::string& header) {
    for (const char* name : kCredentialHeaders)
        if (strcasecmp(header.c_str(), name) == 0) return true;
    return false;
}

// `text` with its references replaced; an error per variable not set.
std::string resolve(const std::string& text, const std::string& path, const Environment& env,
                    std::vector<SpecError>& errors) {
    std::string error;
    const std::vector<Piece> pieces = split(text, &error);
    if (!error.empty()) {
        errors.push_back({path, error});
        return {};
    }
    std::string out;
    for (const Piece& p : pieces) {
        if (!p.variable) {
            out += p.text;
        } else if (const auto value = env(p.text)) {
            out += *value;
        } else {
            errors.push_back({path, "environment variable " + p.text + " is not set"});
        }
    }
    return out;
}

}  // namespace

std::string reference_syntax_error(std::string_view text) {
    std::string error;
    split(text, &error);
    return error;
}

std::optional<std::string> process_environment(const std::string& name) {
    if (const char* value = std::getenv(name.c_str())) return std::string(value);
    return std::nullopt;
}

std::string redis_password_error(std::string_view text) {
    if (text.empty()) return "empty (leave the key out for no AUTH)";
    return reference_syntax_error(text);
}

std::string resolve_redis_password(const std::string& text, const std::string& path,
                                   const Environment& env, std::vector<SpecError>& errors) {
    if (text != kMaskedValue) return resolve(text, path, env, errors);
    errors.push_back({path,
                      "\"***\" is the mask a stored spec keeps in place of a literal password, "
                      "not the password: give it as ${NAME} and set that environment variable"});
    return {};
}

SpecResult resolve_references(const RunSpec& spec, const Environment& env) {
    SpecResult result;
    RunSpec resolved = spec;
    if (resolved.http) {
        auto& targets = resolved.http->targets;
        for (size_t i = 0; i < targets.size(); ++i) {
            const std::string base = "http.targets[" + std::to_string(i) + "].";
            for (auto& [name, value] : targets[i].headers) {
                const std::string path = base + "headers." + name;
                if (is_credential(name) && value == kMaskedValue)
                    result.errors.push_back(
                        {path, "\"***\" is the mask a stored spec keeps in place of a literal " +
                                   name +
                                   ", not its value: give the value as ${NAME} and set "
                                   "that environment variable"});
                else
                    value = resolve(value, path, env, result.errors);
            }
            targets[i].body = resolve(targets[i].body, base + "body", env, result.errors);
            targets[i].body_template =
                resolve(targets[i].body_template, base + "body_template", env, result.errors);
        }
    }
    if (resolved.cache && !resolved.cache->redis.password.empty()) {
        auto& password = resolved.cache->redis.password;
        password = resolve_redis_password(password, "cache.redis.password", env, result.errors);
    }
    if (result.errors.empty()) result.spec = std::move(resolved);
    return result;
}

namespace {

// A literal password in `holder` (the cache's "redis" object, a Redis probe): "***"; one naming
// a variable stays as it is.
void mask_password(nlohmann::json& holder) {
    if (!holder.is_object()) return;
    const auto password = holder.find("password");
    if (password != holder.end() && password->is_string() &&
        !password->get<std::string>().empty() && !names_a_variable(password->get<std::string>()))
        *password = std::string(kMaskedValue);
}

void mask_redis_passwords(nlohmann::json& spec) {
    if (const auto cache = spec.find("cache"); cache != spec.end() && cache->is_object())
        if (const auto redis = cache->find("redis"); redis != cache->end()) mask_password(*redis);
    if (const auto probes = spec.find("probes"); probes != spec.end() && probes->is_array())
        for (auto& probe : *probes)
            if (probe.is_object() && probe.contains("redis")) mask_password(probe);
}

}  // namespace

nlohmann::json masked_for_storage(nlohmann::json spec) {
    if (spec.is_object()) mask_redis_passwords(spec);
    const auto http = spec.find("http");
    if (!spec.is_object() || http == spec.end() || !http->is_object()) return spec;
    const auto targets = http->find("targets");
    if (targets == http->end() || !targets->is_array()) return spec;
    for (auto& target : *targets) {
        const auto headers = target.is_object() ? target.find("headers") : target.end();
        if (headers == target.end() || !headers->is_object()) continue;
        for (auto& [name, value] : headers->items())
            if (is_credential(name) && value.is_string() && !value.get<std::string>().empty() &&
                !names_a_variable(value.get<std::string>()))
                value = std::string(kMaskedValue);
    }
    return spec;
}

}  // namespace perflab
