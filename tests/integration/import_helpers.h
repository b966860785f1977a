// SPDX-License-Identifier: MIT
// What the import tests share: the CLI, and the figures a stored op must have, computed by the
// test from the latencies it knows.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "process.h"

namespace perflab::test {

inline Output perflab(std::vector<std::string> args) {
    args.insert(args.begin(), PERFLAB_BINARY);
    return run(args, 60);
}

// What a test expects of one op, from the requests it wrote or read.
struct Expected {
    std::vector<int64_t> latencies_us;
    uint64_t errors = 0;
};

// The value of rank ceil(p/100 * n) in sorted order, p given in tenths of a percent so the
// rank is integer arithmetic.
inline int64_t exact_percentile(std::vector<int64_t> v, uint64_t p_tenths) {
    std::sort(v.begin(), v.end());
    const uint64_t n = v.size();
    const uint64_t rank = std::max<uint64_t>(1, (p_tenths * n + 999) / 1000);
    return v[rank - 1];
}

// The stored histograms report a bucket's highest value (never above the largest recorded):
// exact below 2048 µs, within 1/1024 above.
inline void expect_percentile(const nlohmann::json& latency, const char* key, const Expected& e,
                              uint64_t p_tenths) {
    const int64_t exact = exact_percentile(e.latencies_us, p_tenths);
    const int64_t ours = latency[key].get<int64_t>();
    EXPECT_GE(ours, exact) << key;
    EXPECT_LE(double(ours - exact), double(exact) / 1024.0)
        << key << ": " << ours << " vs " << exact;
}

inline void expect_op(const nlohmann::json& ops, const std::string& name, const Expected& e) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(ops.contains(name)) << ops.dump();
    const nlohmann::json& op = ops[name];
    EXPECT_EQ(op["count"].get<uint64_t>(), e.latencies_us.size());
    EXPECT_EQ(op["errors"].get<uint64_t>(), e.errors);
    expect_percentile(op["latency_us"], "p50", e, 500);
    expect_percentile(op["latency_us"], "p99", e, 990);
    EXPECT_EQ(op["latency_us"]["max"].get<int64_t>(),
              *std::max_element(e.latencies_us.begin(), e.latencies_us.end()));
}

}  // namespace perflab::test
