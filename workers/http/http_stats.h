// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/histogram.h"
#include "model/sample.h"
#include "op_times.h"

namespace perflab {

// Why a request failed without a status code. A small fixed set, so recording one is an
// array increment; the texts are what the report's error set shows. `timeout` is a request
// that got no (full) response in http.timeout_ms, `connect_timeout` a connection (and TLS
// handshake) not made in http.connect_timeout_ms, `cancelled` a request still in flight when a
// stop stopped waiting for it.
enum class HttpError {
    refused,
    reset,
    timeout,
    tls,
    parse,
    eof,
    resolve,
    other,
    connect_timeout,
    cancelled
};
constexpr size_t kHttpErrorKinds = 10;
const char* to_text(HttpError e);

// A response check (the spec's "expect") that a response can fail; as a bit in a mask,
// 1 << kind. The texts are the spec's keys; `capture` is a session step whose response did
// not hold the value it captures.
enum class CheckKind { status, body_contains, body_regex, json, max_bytes, capture };
constexpr size_t kCheckKinds = 6;
const char* to_text(CheckKind k);

// One worker thread's counts for one tick, written by that thread alone (inside a
// DoubleBuffer) and merged into the IntervalSample by the collector.
struct HttpStats {
    struct Target {
        uint64_t count = 0;
        uint64_t errors = 0;
        Histogram latency;
        Histogram service;            // open model only
        uint64_t check_failures = 0;  // responses that failed one check or more
        std::array<uint64_t, kCheckKinds> checks{};
    };
    static constexpr int kStatusSlots = 600;  // 0..599; anything else lands in slot 0

    std::vector<Target> targets;
    std::array<uint64_t, kStatusSlots> status{};
    std::array<uint64_t, kHttpErrorKinds> errors{};
    uint64_t bytes_in = 0;
    uint64_t bytes_out = 0;
    uint64_t sent = 0;
    uint64_t late = 0;
    uint64_t dropped = 0;
    OpTimes times;

    // Sized for every target up front, so recording never allocates.
    explicit HttpStats(size_t target_count = 0) : targets(target_count) {}

    // A response; status 200..399 counts as a success unless `status_checked` (the target's
    // checks judged the status), and a response that failed a check (bits 1 << CheckKind)
    // is not one. service_us < 0: the closed model, where service time is the latency.
    void response(size_t target, int code, int64_t latency_us, int64_t service_us,
                  uint64_t body_bytes, unsigned failed_checks = 0,
                  bool status_checked = false) noexcept;
    // A request that got no response (refused, reset, timed out, cancelled...): an error with
    // a count of its kind, and no latency: the time until it failed is not a response time,
    // and a refused connection's few µs would pull the percentiles to the floor.
    void failure(size_t target, HttpError kind) noexcept;
    void reset() noexcept;
    // Ops keyed by names[target] ("GET http://..."), times relative to origin (the run's start).
    void add_to(IntervalSample& sample, const std::vector<std::string>& names,
                Clock::time_point origin) const;
};

}  // namespace perflab
