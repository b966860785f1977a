// SPDX-License-Identifier: MIT
#include "agent_secrets.h"

namespace perflab {

namespace {

// A resolved value as a literal: each "${" escaped, which the resolver turns back into "${".
std::string literal(const std::string& value) {
    std::string out;
    out.reserve(value.size());
    for (size_t i = 0; i < value.size(); ++i) {
        if (value.compare(i, 2, "${") == 0) out += '$';
        out += value[i];
    }
    return out;
}

}  // namespace

SpecResult spec_for_agents(const RunSpec& spec, const Environment& env) {
    SpecResult resolved = resolve_references(spec, env);
    if (!resolved) return resolved;
    // The fields resolve_references resolves.
    if (resolved.spec->cache) {
        auto& password = resolved.spec->cache->redis.password;
        password = literal(password);
    }
    if (!resolved.spec->http) return resolved;
    for (auto& target : resolved.spec->http->targets) {
        for (auto& [name, value] : target.headers)
            value = literal(value);
        target.body = literal(target.body);
        target.body_template = literal(target.body_template);
    }
    return resolved;
}

}  // namespace perflab
