// SPDX-License-Identifier: MIT
#include "session_spec.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "json_path.h"
#include "json_reader.h"
#include "regex_limits.h"
#include "template_syntax.h"

namespace perflab {

namespace {

constexpr int64_t kMaxThinkMs = 3'600'000;

std::string step_path(size_t i) {
    return "http.session[" + std::to_string(i) + "]";
}

bool is_name(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

bool think_bound(const nlohmann::json& v) {
    return v.is_number_integer() && v.get<int64_t>() >= 0 && v.get<int64_t>() <= kMaxThinkMs;
}

void parse_think(const nlohmann::json& v, SessionStep& step, const std::string& path,
                 JsonReader& r) {
    if (think_bound(v)) {
        step.think_min_ms = step.think_max_ms = v.get<uint32_t>();
    } else if (v.is_array() && v.size() == 2 && think_bound(v[0]) && think_bound(v[1]) &&
               v[0].get<int64_t>() <= v[1].get<int64_t>()) {
        step.think_min_ms = v[0].get<uint32_t>();
        step.think_max_ms = v[1].get<uint32_t>();
    } else {
        r.error(path, "expected milliseconds N or [MIN, MAX] with 0 ≤ MIN ≤ MAX ≤ " +
                          std::to_string(kMaxThinkMs));
    }
}

HttpCapture parse_capture(const nlohmann::json& json, const std::string& path,
                          std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    HttpCapture c;
    if (!r.is_object()) {
        r.error(path, "expected an object such as {\"name\": \"token\", \"json\": \"$.token\"}");
        return c;
    }
    r.allow_only({"name", "json", "header", "regex"});
    if (auto v = r.string("name")) {
        if (is_name(*v))
            c.name = *v;
        else
            r.error(r.path("name"), "expected a name of letters, digits and _ (not first a digit)");
    } else if (!r.has("name")) {
        r.error(r.path("name"), "required: the {{var NAME}} later steps use");
    }
    if (int(r.has("json")) + int(r.has("header")) + int(r.has("regex")) != 1)
        r.error(path, "give one of \"json\", \"header\" and \"regex\"");
    std::string why;
    if (auto v = r.string("json")) {
        if (parse_json_path(*v, why))
            c.json = *v;
        else
            r.error(r.path("json"), why);
    }
    if (auto v = r.string("header")) {
        if (v->empty() || v->find_first_of(" :\r\n") != std::string::npos)
            r.error(r.path("header"), "not a header name");
        else
            c.header = *v;
    }
    if (auto v = r.string("regex")) {
        if (const auto refused = regex_refusal(*v)) {
            r.error(r.path("regex"), *refused);
        } else {
            try {
                if (std::regex(*v).mark_count() < 1)
                    r.error(r.path("regex"),
                            "needs a group, such as token=(\\w+): its text is the value");
                else
                    c.regex = *v;
            } catch (const std::regex_error& x) {
                r.error(r.path("regex"), std::string("not a regular expression: ") + x.what());
            }
        }
    }
    return c;
}

SessionStep parse_step(const nlohmann::json& json, const std::string& path,
                       std::vector<SpecError>& errors) {
    JsonReader r(json, path, errors);
    SessionStep step;
    if (!r.is_object()) {
        r.error(path, "expected a step such as {\"target\": 0, \"think_ms\": [500, 1500]}");
        return step;
    }
    r.allow_only({"target", "think_ms", "capture"});
    if (auto v = r.integer("target", 0, 1'000'000))
        step.target = size_t(*v);
    else if (!r.has("target"))
        r.error(r.path("target"), "required: the index of a target in http.targets");
    if (const auto* v = r.child("think_ms")) parse_think(*v, step, r.path("think_ms"), r);
    if (const auto* v = r.child("capture"))
        step.capture = parse_capture(*v, r.path("capture"), errors);
    return step;
}

// Every {{var NAME}} of a target's templates, with the field it is in.
std::vector<std::pair<std::string, std::string>> vars_of(const HttpTarget& t) {
    std::vector<std::pair<std::string, std::string>> out;
    const auto add = [&](const std::string& text, const std::string& field) {
        for (auto& name : template_var_names(text))
            out.emplace_back(std::move(name), field);
    };
    add(t.url, "url");
    for (const auto& [name, value] : t.headers)
        add(value, "headers." + name);
    add(t.body_template, "body_template");
    return out;
}

bool captured_before(const std::vector<SessionStep>& session, size_t step,
                     const std::string& name) {
    for (size_t j = 0; j < step; ++j)
        if (session[j].capture && session[j].capture->name == name) return true;
    return false;
}

void check_vars(const HttpSpec& http, std::vector<SpecError>& errors) {
    const auto& session = http.session;
    for (size_t i = 0; i < http.targets.size(); ++i)
        for (const auto& [name, field] : vars_of(http.targets[i]))
            if (!captured_before(session, session.size(), name))
                errors.push_back(
                    {"http.targets[" + std::to_string(i) + "]." + field,
                     "{{var " + name + "}}: no step of http.session captures \"" + name + "\""});
    for (size_t i = 0; i < session.size(); ++i) {
        if (session[i].target >= http.targets.size()) continue;
        for (const auto& [name, field] : vars_of(http.targets[session[i].target]))
            if (captured_before(session, session.size(), name) &&
                !captured_before(session, i, name))
                errors.push_back({step_path(i) + ".target",
                                  "target " + std::to_string(session[i].target) + " uses {{var " +
                                      name + "}}, which no earlier step captures"});
    }
}

}  // namespace

std::vector<SessionStep> parse_session(const nlohmann::json& json, std::vector<SpecError>& errors) {
    std::vector<SessionStep> steps;
    if (!json.is_array() || json.empty()) {
        errors.push_back({"http.session", "expected a non-empty array of steps"});
        return steps;
    }
    for (size_t i = 0; i < json.size(); ++i)
        steps.push_back(parse_step(json[i], step_path(i), errors));
    return steps;
}

void check_session(const RunSpec& spec, std::vector<SpecError>& errors) {
    if (!spec.http) return;
    const HttpSpec& http = *spec.http;
    check_vars(http, errors);
    if (http.session.empty()) return;
    for (size_t i = 0; i < http.session.size(); ++i)
        if (http.session[i].target >= http.targets.size())
            errors.push_back(
                {step_path(i) + ".target",
                 "no target " + std::to_string(http.session[i].target) + " (there " +
                     (http.targets.size() == 1 ? "is 1"
                                               : "are " + std::to_string(http.targets.size())) +
                     ")"});
    if (spec.search)
        errors.push_back({"search", "a session's users are a closed model: a search sets rates"});
    for (size_t i = 0; i < spec.phases.size(); ++i)
        if (spec.phases[i].open())
            errors.push_back({"phases[" + std::to_string(i) + "].rate",
                              "a session's users are a closed model: give the phase "
                              "\"concurrency\" (its users), not a rate"});
}

nlohmann::json session_json(const std::vector<SessionStep>& session) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& s : session) {
        nlohmann::json j = {{"target", s.target}};
        if (s.think_max_ms > 0) {
            if (s.think_min_ms == s.think_max_ms)
                j["think_ms"] = s.think_min_ms;
            else
                j["think_ms"] = {s.think_min_ms, s.think_max_ms};
        }
        if (s.capture) {
            const HttpCapture& c = *s.capture;
            j["capture"] = {{"name", c.name}};
            if (!c.json.empty()) j["capture"]["json"] = c.json;
            if (!c.header.empty()) j["capture"]["header"] = c.header;
            if (!c.regex.empty()) j["capture"]["regex"] = c.regex;
        }
        out.push_back(j);
    }
    return out;
}

}  // namespace perflab
