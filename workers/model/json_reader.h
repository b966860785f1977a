// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "spec.h"

namespace perflab {

// Walks one JSON object of a spec, recording every problem with the path of its field, so a
// user sees all mistakes at once. Getters return nullopt when the key is absent or wrong.
class JsonReader {
  public:
    JsonReader(const nlohmann::json& object, std::string path, std::vector<SpecError>& errors);

    bool is_object() const { return object_.is_object(); }
    bool has(const char* key) const;
    // Reports every key of the object not in `known`.
    void allow_only(std::initializer_list<const char*> known);

    std::optional<std::string> string(const char* key);
    std::optional<bool> boolean(const char* key);
    std::optional<double> number(const char* key);
    std::optional<int64_t> integer(const char* key, int64_t min, int64_t max);
    std::optional<uint64_t> count(const char* key, uint64_t min, uint64_t max);
    // The value must be one of `choices`; returns its index.
    std::optional<int> choice(const char* key, std::initializer_list<const char*> choices);
    std::optional<std::vector<std::string>> strings(const char* key);

    const nlohmann::json* child(const char* key) const;
    std::string path(const char* key) const;
    void error(const std::string& key_path, std::string message);

  private:
    const nlohmann::json& object_;
    std::string path_;
    std::vector<SpecError>& errors_;
};

std::string json_type_name(const nlohmann::json& value);

}  // namespace perflab
