// SPDX-License-Identifier: MIT
#include "store_access.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "commands.h"
#include "database.h"

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
        double value = 0;
        try {
            value = std::stod(text.substr(i), &used);
        } catch (const std::exception&) {
            return std::nullopt;
        }
        if (value < 0) return std::nullopt;
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
        else
            return std::nullopt;
        if (unit.empty() && i < text.size()) return std::nullopt;
    }
    return int64_t(total + 0.5);
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
