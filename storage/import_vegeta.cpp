// SPDX-License-Identifier: MIT
#include "import_vegeta.h"

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

namespace perflab {

namespace {

// The digits at text[at, at + n) as a number; nullopt unless all are digits.
std::optional<int> digits(std::string_view text, size_t at, size_t n) {
    if (at + n > text.size()) return std::nullopt;
    int v = 0;
    for (size_t i = at; i < at + n; ++i) {
        if (text[i] < '0' || text[i] > '9') return std::nullopt;
        v = v * 10 + (text[i] - '0');
    }
    return v;
}

bool is_uint(const nlohmann::json& j) {
    return j.is_number_unsigned() || (j.is_number_integer() && j.get<int64_t>() >= 0);
}

uint64_t optional_count(const nlohmann::json& line, const char* key, int64_t n) {
    const auto it = line.find(key);
    if (it == line.end() || it->is_null()) return 0;
    if (!is_uint(*it)) throw ImportError(n, key, "not a byte count");
    return it->get<uint64_t>();
}

std::string optional_text(const nlohmann::json& line, const char* key, int64_t n) {
    const auto it = line.find(key);
    if (it == line.end() || it->is_null()) return "";
    if (!it->is_string()) throw ImportError(n, key, "not a string");
    return it->get<std::string>();
}

ImportRecord record_of(const nlohmann::json& line, int64_t n) {
    if (!line.is_object()) throw ImportError(n, "", "not a JSON object");
    ImportRecord r;
    const auto ts = line.find("timestamp");
    if (ts == line.end()) throw ImportError(n, "timestamp", "missing");
    const auto sent = ts->is_string() ? parse_rfc3339_us(ts->get<std::string>()) : std::nullopt;
    if (!sent) throw ImportError(n, "timestamp", "not an RFC 3339 time");
    r.sent_us = *sent;
    r.line = n;
    const auto latency = line.find("latency");
    if (latency == line.end()) throw ImportError(n, "latency", "missing");
    if (!is_uint(*latency)) throw ImportError(n, "latency", "not a duration in nanoseconds");
    r.latency_us = int64_t(latency->get<uint64_t>() / 1000);
    const auto code = line.find("code");
    if (code == line.end()) throw ImportError(n, "code", "missing");
    if (!is_uint(*code) || code->get<uint64_t>() > 999)
        throw ImportError(n, "code", "not an HTTP status code");
    r.code = int(code->get<uint64_t>());
    r.error = optional_text(line, "error", n);
    r.ok = r.code >= 200 && r.code <= 399;  // vegeta's own success
    r.bytes_in = optional_count(line, "bytes_in", n);
    r.bytes_out = optional_count(line, "bytes_out", n);
    r.bytes_in_known = line.contains("bytes_in") && !line["bytes_in"].is_null();
    r.bytes_out_known = line.contains("bytes_out") && !line["bytes_out"].is_null();
    const std::string method = optional_text(line, "method", n);
    const std::string url = optional_text(line, "url", n);
    r.op = url.empty() ? "vegeta" : (method.empty() ? "GET" : method) + " " + url;
    return r;
}

}  // namespace

std::optional<int64_t> parse_rfc3339_us(std::string_view t) {
    using namespace std::chrono;
    const auto y = digits(t, 0, 4), mo = digits(t, 5, 2), d = digits(t, 8, 2);
    const auto h = digits(t, 11, 2), mi = digits(t, 14, 2), s = digits(t, 17, 2);
    if (!y || !mo || !d || !h || !mi || !s || t[4] != '-' || t[7] != '-' ||
        (t[10] != 'T' && t[10] != 't' && t[10] != ' ') || t[13] != ':' || t[16] != ':')
        return std::nullopt;
    const year_month_day date{year{*y}, month{unsigned(*mo)}, day{unsigned(*d)}};
    if (!date.ok() || *h > 23 || *mi > 59 || *s > 60) return std::nullopt;
    size_t at = 19;
    int64_t frac_us = 0;
    if (at < t.size() && t[at] == '.') {
        int64_t scale = 100'000;
        size_t n = 0;
        for (++at; at < t.size() && t[at] >= '0' && t[at] <= '9'; ++at, ++n) {
            frac_us += (t[at] - '0') * scale;  // digits past µs are dropped
            scale /= 10;
        }
        if (n == 0) return std::nullopt;
    }
    int64_t offset_s = 0;
    if (at < t.size() && (t[at] == 'Z' || t[at] == 'z')) {
        ++at;
    } else if (at < t.size() && (t[at] == '+' || t[at] == '-')) {
        const auto oh = digits(t, at + 1, 2), om = digits(t, at + 4, 2);
        if (!oh || !om || t[at + 3] != ':') return std::nullopt;
        offset_s = (t[at] == '-' ? -1 : 1) * (*oh * 3600 + *om * 60);
        at += 6;
    } else {
        return std::nullopt;
    }
    if (at != t.size()) return std::nullopt;
    const int64_t days = sys_days(date).time_since_epoch().count();
    const int64_t secs = days * 86400 + *h * 3600 + *mi * 60 + *s - offset_s;
    return secs * 1'000'000 + frac_us;
}

void read_vegeta(std::istream& in, const RecordSink& sink, const WarningSink& warn) {
    std::string text;
    for (int64_t n = 1; std::getline(in, text); ++n) {
        if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
        const auto line = nlohmann::json::parse(text, nullptr, false);
        if (line.is_discarded()) {
            if (skip_cut_last_line(in, n, warn)) return;
            throw ImportError(n, "", "not valid JSON");
        }
        sink(record_of(line, n));
    }
}

}  // namespace perflab
