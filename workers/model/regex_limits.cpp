// SPDX-License-Identifier: MIT
#include "regex_limits.h"

#include <cctype>

namespace perflab {

namespace {

constexpr long kMaxRepeat = 1000;

bool digit(char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

}  // namespace

std::optional<std::string> regex_refusal(std::string_view pattern) {
    bool in_class = false;
    for (size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '\\') {
            // "\12": a back-reference, whose number std::regex reads as it reads a count.
            long number = 0;
            size_t j = i + 1;
            for (; j < pattern.size() && digit(pattern[j]); ++j)
                if ((number = number * 10 + (pattern[j] - '0')) > kMaxRepeat)
                    return "an escape number over " + std::to_string(kMaxRepeat) +
                           " (at character " + std::to_string(i + 1) + ")";
            i = j > i + 1 ? j - 1 : i + 1;
        } else if (in_class) {
            in_class = c != ']';
        } else if (c == '[') {
            in_class = true;
        } else if (c == '{') {
            // "{n}", "{n,}" or "{n,m}": each count read as a bounded number.
            long count = 0;
            for (size_t j = i + 1; j < pattern.size() && (digit(pattern[j]) || pattern[j] == ',');
                 ++j) {
                count = pattern[j] == ',' ? 0 : count * 10 + (pattern[j] - '0');
                if (count > kMaxRepeat)
                    return "a repetition count over " + std::to_string(kMaxRepeat) +
                           " (at character " + std::to_string(i + 1) + ")";
            }
        }
    }
    return std::nullopt;
}

}  // namespace perflab
