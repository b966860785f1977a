// SPDX-License-Identifier: MIT
#include "json_path.h"

#include <cctype>
#include <nlohmann/json.hpp>

namespace perflab {

std::optional<JsonPath> parse_json_path(const std::string& text, std::string& error) {
    error.clear();
    if (text.empty() || text[0] != '$') {
        error = "a JSON path starts with \"$\"";
        return std::nullopt;
    }
    JsonPath path;
    size_t i = 1;
    while (i < text.size()) {
        if (text[i] == '.') {
            const size_t from = ++i;
            while (i < text.size() && text[i] != '.' && text[i] != '[')
                ++i;
            if (i == from) break;
            path.emplace_back(text.substr(from, i - from));
        } else if (text[i] == '[' && i + 1 < text.size() &&
                   (text[i + 1] == '\'' || text[i + 1] == '"')) {
            const char quote = text[i + 1];
            const size_t end = text.find(quote, i + 2);
            if (end == std::string::npos || end + 1 >= text.size() || text[end + 1] != ']') break;
            path.emplace_back(text.substr(i + 2, end - i - 2));
            i = end + 2;
        } else if (text[i] == '[') {
            const size_t from = ++i;
            while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
                ++i;
            if (i == from || i >= text.size() || text[i] != ']') break;
            path.emplace_back(size_t(std::stoull(text.substr(from, i - from))));
            ++i;
        } else {
            break;
        }
    }
    if (i < text.size() || (!text.empty() && (text.back() == '.'))) {
        error = "\"" + text + "\" is not a path such as $.items[0].id";
        return std::nullopt;
    }
    return path;
}

const nlohmann::json* find_json(const nlohmann::json& doc, const JsonPath& path) {
    const nlohmann::json* at = &doc;
    for (const auto& step : path) {
        if (const auto* key = std::get_if<std::string>(&step)) {
            if (!at->is_object()) return nullptr;
            const auto it = at->find(*key);
            if (it == at->end()) return nullptr;
            at = &*it;
        } else {
            const size_t index = std::get<size_t>(step);
            if (!at->is_array() || index >= at->size()) return nullptr;
            at = &(*at)[index];
        }
    }
    return at;
}

}  // namespace perflab
