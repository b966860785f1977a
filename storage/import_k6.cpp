// SPDX-License-Identifier: MIT
#include "import_k6.h"

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "import_vegeta.h"

namespace perflab {

namespace {

// The string at `key` (a tag, a line's type or metric), or "" when it is not a string.
std::string tag(const nlohmann::json& tags, const char* key) {
    const auto it = tags.find(key);
    return it != tags.end() && it->is_string() ? it->get<std::string>() : std::string();
}

ImportRecord record_of(const nlohmann::json& data, int64_t n) {
    ImportRecord r;
    const auto value = data.find("value");
    // Up to a year: a larger one is no request's and would overflow as µs.
    if (value == data.end() || !value->is_number() || !(value->get<double>() >= 0) ||
        value->get<double>() > 365.0 * 86'400'000)
        throw ImportError(n, "data.value", "not a duration in milliseconds");
    r.latency_us = int64_t(std::llround(value->get<double>() * 1000));
    const auto time = data.find("time");
    const auto ended = time != data.end() && time->is_string()
                           ? parse_rfc3339_us(time->get<std::string>())
                           : std::nullopt;
    if (!ended) throw ImportError(n, "data.time", "not an RFC 3339 time");
    r.sent_us = *ended - r.latency_us;
    r.line = n;
    r.time_field = "data.time";
    // k6 counts data_received and data_sent per iteration, not per request.
    r.bytes_in_known = r.bytes_out_known = false;
    const auto tags_it = data.find("tags");
    const nlohmann::json tags =
        tags_it != data.end() && tags_it->is_object() ? *tags_it : nlohmann::json::object();
    const std::string status = tag(tags, "status");
    if (!status.empty()) {
        char* end = nullptr;
        const long code = std::strtol(status.c_str(), &end, 10);
        if (*end != '\0' || code < 0 || code > 999)
            throw ImportError(n, "data.tags.status", "not an HTTP status: \"" + status + "\"");
        r.code = int(code);
    }
    r.error = tag(tags, "error");
    const std::string expected = tag(tags, "expected_response");
    r.ok = expected.empty() ? r.code >= 200 && r.code <= 399 : expected == "true";
    const std::string method = tag(tags, "method");
    std::string target = tag(tags, "name");
    if (target.empty()) target = tag(tags, "url");
    r.op = target.empty() ? "k6" : (method.empty() ? "GET" : method) + " " + target;
    return r;
}

}  // namespace

void read_k6(std::istream& in, const RecordSink& sink, const WarningSink& warn) {
    std::string text;
    for (int64_t n = 1; std::getline(in, text); ++n) {
        if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
        const auto line = nlohmann::json::parse(text, nullptr, false);
        if (line.is_discarded() && skip_cut_last_line(in, n, warn)) return;
        if (line.is_discarded() || !line.is_object()) throw ImportError(n, "", "not a JSON object");
        // Not json::value(), which throws a type_error for a type or metric that is no string.
        if (tag(line, "type") != "Point" || tag(line, "metric") != "http_req_duration") continue;
        const auto data = line.find("data");
        if (data == line.end() || !data->is_object()) throw ImportError(n, "data", "missing");
        sink(record_of(*data, n));
    }
}

}  // namespace perflab
