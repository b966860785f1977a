// SPDX-License-Identifier: MIT
#include "format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace perflab {

std::string format_fixed(double value, int decimals) {
    // Room for any double in fixed notation (up to 309 integer digits) and its decimals.
    char buf[400];
    const auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed,
                                 std::min(decimals, 60));
    return std::string(buf, r.ptr);
}

std::string format_fixed(double value, int decimals, int width) {
    std::string s = format_fixed(value, decimals);
    if (int(s.size()) < width) s.insert(0, size_t(width) - s.size(), ' ');
    return s;
}

namespace {

bool blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

}  // namespace

std::optional<double> parse_number_prefix(std::string_view text, size_t& used) {
    size_t i = 0;
    while (i < text.size() && blank(text[i]))
        ++i;
    // from_chars takes no '+'; strtod, which files written elsewhere were made for, does.
    if (i + 1 < text.size() && text[i] == '+' && text[i + 1] != '-') ++i;
    double value = 0;
    const auto r = std::from_chars(text.data() + i, text.data() + text.size(), value);
    if (r.ec != std::errc()) return std::nullopt;
    used = size_t(r.ptr - text.data());
    return value;
}

std::optional<double> parse_number(std::string_view text) {
    size_t used = 0;
    const auto value = parse_number_prefix(text, used);
    if (!value) return std::nullopt;
    while (used < text.size() && blank(text[used]))
        ++used;
    if (used != text.size()) return std::nullopt;
    return value;
}

std::string format_latency_us(int64_t us) {
    if (us < 1000) return std::to_string(us) + "µs";
    if (us < 10'000) return format_fixed(double(us) / 1e3, 2) + "ms";
    if (us < 1'000'000) return format_fixed(double(us) / 1e3, 1) + "ms";
    return format_fixed(double(us) / 1e6, 2) + "s";
}

std::string format_latency_ms(int64_t us) {
    return format_fixed(double(us) / 1e3, 2) + "ms";
}

std::string format_bytes(uint64_t bytes) {
    static const char units[] = {'k', 'm', 'g', 't', 'p'};
    if (bytes < 1024) return std::to_string(bytes) + "b";
    double v = double(bytes);
    int unit = -1;
    while (v >= 1024 && unit < 4)
        v /= 1024, ++unit;
    return format_fixed(v, 2) + units[unit];
}

std::string format_clock(int64_t ms) {
    const int64_t s = ms / 1000;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld", static_cast<long long>(s / 3600),
                  static_cast<long long>(s / 60 % 60), static_cast<long long>(s % 60));
    return buf;
}

std::string format_go_duration(double seconds) {
    if (seconds < 1e-3) return format_fixed(seconds * 1e6, 1) + "µs";
    if (seconds < 1) return format_fixed(seconds * 1e3, 1) + "ms";
    const auto minutes = static_cast<long long>(seconds / 60);
    const double rest = seconds - double(minutes) * 60;
    const std::string secs = format_fixed(rest, 2) + "s";
    if (minutes == 0) return secs;
    const long long hours = minutes / 60;
    const std::string mins = std::to_string(minutes % 60) + "m";
    return (hours ? std::to_string(hours) + "h" : "") + mins + secs;
}

}  // namespace perflab
