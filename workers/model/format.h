// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace perflab {

std::string format_latency_us(int64_t us);       // 87µs, 0.41ms, 12.3ms, 1.52s
std::string format_latency_ms(int64_t us);       // always in ms: 0.41ms
std::string format_bytes(uint64_t bytes);        // 1024-based, the field's style: 3.93g, 7.42m
std::string format_clock(int64_t ms);            // 00:00:05
std::string format_go_duration(double seconds);  // vegeta's style: 1m0.49s, 249.2ms
std::string format_fixed(double value, int decimals);

}  // namespace perflab
