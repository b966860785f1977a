// SPDX-License-Identifier: MIT
#include "store_access.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "commands.h"
#include "database.h"
#include "model/format.h"

namespace perflab {

std::string database_path(const std::string& option) {
    return option.empty() ? default_database_path() : option;
}

std::optional<int64_t> parse_duration_ms(const std::string& text) {
    if (text.empty()) return std::nullopt;
    double total = 0;
    size_t i = 0;
    while (i < text.size()) {
        size_t used = 0;
        const auto parsed = parse_number_prefix(std::string_view(text).substr(i), used);
        if (!parsed || *parsed < 0 || !std::isfinite(*parsed)) return std::nullopt;
        const double value = *parsed;
        i += used;
        size_t unit_end = i;
        while (unit_end < text.size() && std::isalpha(static_cast<unsigned char>(text[unit_end])))
            ++unit_end;
        const std::string unit = text.substr(i, unit_end - i);
        i = unit_end;
        if (unit == "ms")
            total += value;
        else if (unit == "s" || unit.empty())
            total += value * 1000;
        else if (unit == "m")
            total += value * 60'000;
        else if (unit == "h")
            total += value * 3'600'000;
        else if (unit == "d")
            total += value * 86'400'000;
        else
            return std::nullopt;
        if (unit.empty() && i < text.size()) return std::nullopt;
    }
    if (!(total < 1e18)) return std::nullopt;  // beyond int64 as ms
    return int64_t(total + 0.5);
}

std::string outside_run(const RunInfo& run, int64_t t_ms, const std::string& what,
                        bool before_end) {
    if (run.ended_at_ms <= 0) return "";
    const int64_t length = run.ended_at_ms - run.started_at_ms;
    if (t_ms >= 0 && (before_end ? t_ms < length : t_ms <= length)) return "";
    return what + ": " + format_fixed(double(t_ms) / 1000, 1) + " s is outside run " +
           std::to_string(run.id) + ", which spans 0.0-" + format_fixed(double(length) / 1000, 1) +
           " s";
}

int bad_input(const std::string& message) {
    std::fprintf(stderr, "perflab: %s\n", message.c_str());
    return kExitBadInput;
}

bool write_output(const std::string& path, const std::string& text) {
    if (path.empty()) {
        std::cout << text << std::flush;
        return true;
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
        std::fprintf(stderr, "perflab: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
        return false;
    }
    return true;
}

}  // namespace perflab
