// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace perflab {

std::string format_latency_us(int64_t us);       // 87µs, 0.41ms, 12.3ms, 1.52s
std::string format_latency_ms(int64_t us);       // always in ms: 0.41ms
std::string format_bytes(uint64_t bytes);        // 1024-based, the field's style: 3.93g, 7.42m
std::string format_clock(int64_t ms);            // 00:00:05
std::string format_go_duration(double seconds);  // vegeta's style: 1m0.49s, 249.2ms

// Numbers in files, reports and protocols: '.' is the decimal point whatever the process's
// locale (a desktop session's LC_NUMERIC may say ','), and no grouping.
std::string format_fixed(double value, int decimals);
std::string format_fixed(double value, int decimals, int width);  // right-aligned, as %W.Df
// The whole of `text` as a number (blanks around it allowed), or nothing.
std::optional<double> parse_number(std::string_view text);
// The number at the start of `text` (after blanks; a leading '+' allowed) and, in `used`, the
// characters it took; nothing when `text` starts with no number.
std::optional<double> parse_number_prefix(std::string_view text, size_t& used);

}  // namespace perflab
