// SPDX-License-Identifier: MIT
#include "session.h"

#include <nlohmann/json.hpp>

#include "request_template.h"

namespace perflab {

namespace {

bool store(std::string_view value, std::string& into) {
    if (value.empty() || value.size() > kMaxCaptureBytes ||
        value.find_first_of("\r\n") != std::string_view::npos)
        return false;
    into.assign(value.data(), value.size());
    return true;
}

}  // namespace

ValueCapture::ValueCapture(const HttpCapture& capture, size_t var)
    : var_(var), header_(capture.header) {
    // The spec was validated: the path parses and the expression compiles.
    if (!capture.json.empty()) {
        std::string ignored;
        path_ = parse_json_path(capture.json, ignored);
    }
    if (!capture.regex.empty())
        regex_.emplace(capture.regex, std::regex::ECMAScript | std::regex::optimize);
}

bool ValueCapture::from_json(std::string_view body, std::string& into) const {
    const auto doc = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
    if (doc.is_discarded()) return false;
    const nlohmann::json* value = find_json(doc, *path_);
    if (!value) return false;
    if (value->is_string()) return store(value->get_ref<const std::string&>(), into);
    // A number or a boolean goes in as its JSON text; an object, array or null is no value.
    if (value->is_number() || value->is_boolean()) return store(value->dump(), into);
    return false;
}

bool ValueCapture::take(std::string_view body, std::string_view header_value,
                        std::string& into) const {
    if (!header_.empty()) return store(header_value, into);
    if (path_) return from_json(body, into);
    std::match_results<std::string_view::const_iterator> match;
    if (!std::regex_search(body.begin(), body.end(), match, *regex_)) return false;
    const auto& group = match[1];
    if (!group.matched) return false;
    return store(body.substr(size_t(group.first - body.begin()), size_t(group.length())), into);
}

}  // namespace perflab
