// SPDX-License-Identifier: MIT
#include "http_stats.h"

namespace perflab {

const char* to_text(HttpError e) {
    static const char* texts[kHttpErrorKinds] = {"connection refused",
                                                 "connection reset",
                                                 "timeout",
                                                 "tls",
                                                 "parse error",
                                                 "eof",
                                                 "resolve",
                                                 "other",
                                                 "connect timeout",
                                                 "cancelled"};
    return texts[size_t(e)];
}

const char* to_text(CheckKind k) {
    static const char* texts[kCheckKinds] = {"status", "body_contains", "body_regex",
                                             "json",   "max_bytes",     "capture"};
    return texts[size_t(k)];
}

void HttpStats::response(size_t target, int code, int64_t latency_us, int64_t service_us,
                         uint64_t body_bytes, unsigned failed_checks,
                         bool status_checked) noexcept {
    auto& t = targets[target];
    ++t.count;
    const bool bad_status = !status_checked && (code < 200 || code > 399);
    t.errors += bad_status || failed_checks != 0;
    t.check_failures += failed_checks != 0;
    for (size_t k = 0; k < kCheckKinds; ++k)
        t.checks[k] += (failed_checks >> k) & 1;
    t.latency.record(latency_us);
    if (service_us >= 0) t.service.record(service_us);
    ++status[code > 0 && code < kStatusSlots ? size_t(code) : 0];
    bytes_in += body_bytes;
}

void HttpStats::failure(size_t target, HttpError kind) noexcept {
    auto& t = targets[target];
    ++t.count;
    ++t.errors;
    ++errors[size_t(kind)];
}

void HttpStats::reset() noexcept {
    for (auto& t : targets) {
        t.count = t.errors = t.check_failures = 0;
        t.checks = {};
        t.latency.reset();
        t.service.reset();
    }
    status = {};
    errors = {};
    bytes_in = bytes_out = sent = late = dropped = 0;
    times.reset();
}

void HttpStats::add_to(IntervalSample& sample, const std::vector<std::string>& names,
                       Clock::time_point origin) const {
    for (size_t i = 0; i < names.size(); ++i) {
        // Every target always appears, so one that got no reply still reports 0.
        auto& op = sample.ops[names[i]];
        if (i >= targets.size()) continue;
        op.count += targets[i].count;
        op.errors += targets[i].errors;
        op.latency.merge(targets[i].latency);
        op.service.merge(targets[i].service);
        op.check_failures += targets[i].check_failures;
        for (size_t k = 0; k < kCheckKinds; ++k)
            if (targets[i].checks[k])
                op.checks_failed[to_text(CheckKind(k))] += targets[i].checks[k];
    }
    for (size_t code = 0; code < status.size(); ++code)
        if (status[code]) sample.status_codes[int(code)] += status[code];
    for (size_t k = 0; k < errors.size(); ++k)
        if (errors[k]) sample.errors[to_text(HttpError(k))] += errors[k];
    sample.bytes_in += bytes_in;
    sample.bytes_out += bytes_out;
    times.add_to(sample, sent, origin);
    sample.late += late;
    sample.dropped += dropped;
}

}  // namespace perflab
