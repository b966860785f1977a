// SPDX-License-Identifier: MIT
#include "json_reader.h"

#include <cmath>

namespace perflab {

std::string json_type_name(const nlohmann::json& value) {
    if (value.is_number_integer()) return "integer";
    if (value.is_number()) return "number";
    return value.type_name();
}

JsonReader::JsonReader(const nlohmann::json& object, std::string path,
                       std::vector<SpecError>& errors)
    : object_(object), path_(std::move(path)), errors_(errors) {
    if (!object_.is_object()) error(path_, "expected an object, got " + json_type_name(object_));
}

bool JsonReader::has(const char* key) const {
    return object_.is_object() && object_.contains(key);
}

std::string JsonReader::path(const char* key) const {
    return path_.empty() ? key : path_ + "." + key;
}

void JsonReader::error(const std::string& key_path, std::string message) {
    errors_.push_back({key_path, std::move(message)});
}

void JsonReader::allow_only(std::initializer_list<const char*> known) {
    if (!object_.is_object()) return;
    for (const auto& [key, value] : object_.items()) {
        bool ok = false;
        for (const char* k : known)
            ok = ok || key == k;
        if (!ok) error(path(key.c_str()), "unknown key");
    }
}

const nlohmann::json* JsonReader::child(const char* key) const {
    if (!has(key)) return nullptr;
    return &object_.at(key);
}

std::optional<std::string> JsonReader::string(const char* key) {
    const auto* v = child(key);
    if (!v) return std::nullopt;
    if (!v->is_string()) {
        error(path(key), "expected a string, got " + json_type_name(*v));
        return std::nullopt;
    }
    return v->get<std::string>();
}

std::optional<bool> JsonReader::boolean(const char* key) {
    const auto* v = child(key);
    if (!v) return std::nullopt;
    if (!v->is_boolean()) {
        error(path(key), "expected true or false, got " + json_type_name(*v));
        return std::nullopt;
    }
    return v->get<bool>();
}

std::optional<double> JsonReader::number(const char* key) {
    const auto* v = child(key);
    if (!v) return std::nullopt;
    if (!v->is_number()) {
        error(path(key), "expected a number, got " + json_type_name(*v));
        return std::nullopt;
    }
    const double d = v->get<double>();
    if (!std::isfinite(d)) {
        error(path(key), "must be finite");
        return std::nullopt;
    }
    return d;
}

std::optional<int64_t> JsonReader::integer(const char* key, int64_t min, int64_t max) {
    const auto* v = child(key);
    if (!v) return std::nullopt;
    // 1e6 arrives as a float; accept any number with an integral value.
    const bool integral =
        v->is_number_integer() ||
        (v->is_number_float() && std::trunc(v->get<double>()) == v->get<double>());
    if (!integral) {
        error(path(key), "expected an integer, got " + json_type_name(*v));
        return std::nullopt;
    }
    const double d = v->get<double>();
    // Beyond int64 a value counts as int64's nearest end, a float too: converting it would be
    // undefined.
    const int64_t i = v->is_number_unsigned() && v->get<uint64_t>() > uint64_t(INT64_MAX)
                          ? INT64_MAX
                      : v->is_number_integer() ? v->get<int64_t>()
                      : d >= 0x1p63            ? INT64_MAX
                      : d < -0x1p63            ? INT64_MIN
                                               : int64_t(d);
    if (i < min || i > max) {
        error(path(key), "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                             ", got " + v->dump());
        return std::nullopt;
    }
    return i;
}

std::optional<uint64_t> JsonReader::count(const char* key, uint64_t min, uint64_t max) {
    const auto i = integer(key, int64_t(min), int64_t(std::min<uint64_t>(max, INT64_MAX)));
    if (!i) return std::nullopt;
    return uint64_t(*i);
}

std::optional<int> JsonReader::choice(const char* key, std::initializer_list<const char*> choices) {
    const auto s = string(key);
    if (!s) return std::nullopt;
    int index = 0;
    std::string list;
    for (const char* c : choices) {
        if (*s == c) return index;
        list += (index++ ? ", " : "") + std::string("\"") + c + "\"";
    }
    error(path(key), "\"" + *s + "\" is not one of " + list);
    return std::nullopt;
}

std::optional<std::vector<std::string>> JsonReader::strings(const char* key) {
    const auto* v = child(key);
    if (!v) return std::nullopt;
    if (!v->is_array()) {
        error(path(key), "expected an array of strings, got " + json_type_name(*v));
        return std::nullopt;
    }
    std::vector<std::string> out;
    for (size_t i = 0; i < v->size(); ++i) {
        if (!(*v)[i].is_string()) {
            error(path(key) + "[" + std::to_string(i) + "]",
                  "expected a string, got " + json_type_name((*v)[i]));
            continue;
        }
        out.push_back((*v)[i].get<std::string>());
    }
    return out;
}

}  // namespace perflab
