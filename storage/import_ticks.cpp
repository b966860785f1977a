// SPDX-License-Identifier: MIT
#include "import_ticks.h"

#include <algorithm>

namespace perflab {

namespace {

int64_t floor_div(int64_t a, int64_t b) {
    return a / b - (a % b < 0);
}

}  // namespace

void ImportTicks::add(const ImportRecord& r) {
    const int64_t second = floor_div(r.sent_us, 1'000'000);
    first_s_ = requests_ ? std::min(first_s_, second) : second;
    ++requests_;
    ops_.insert(r.op);
    IntervalSample& s = ticks_[second];
    OpSample& op = s.ops[r.op];
    ++op.count;
    op.errors += !r.ok;
    op.latency.record(r.latency_us);
    if (r.code) ++s.status_codes[r.code];
    // Like PerfLab's own runs, the error kinds are the failures a status code does not
    // explain: no response, or the tool's verdict on a 2xx/3xx (a JMeter assertion).
    if (!r.ok && (r.code == 0 || (r.code >= 200 && r.code <= 399)))
        ++s.errors[r.error.empty() ? "error" : r.error];
    s.bytes_in += r.bytes_in;
    s.bytes_out += r.bytes_out;
    // Sends and replies in µs since the second the tick begins; take() moves them onto the
    // run's clock, which starts at the first tick.
    const int64_t sent = r.sent_us - second * 1'000'000;
    s.add_sends(1, sent, sent);
    s.add_reply_time(sent + r.latency_us);
}

std::vector<IntervalSample> ImportTicks::take() {
    std::vector<IntervalSample> out;
    if (ticks_.empty()) return out;
    const int64_t last_s = ticks_.rbegin()->first;
    for (int64_t second = first_s_; second <= last_s; ++second) {
        IntervalSample s;
        if (const auto it = ticks_.find(second); it != ticks_.end()) s = std::move(it->second);
        const int64_t offset_us = (second - first_s_) * 1'000'000;
        if (s.sent) {
            s.first_send_us += offset_us;
            s.last_send_us += offset_us;
            s.last_reply_us += offset_us;
        }
        s.t_ms = (second - first_s_ + 1) * 1000;
        s.interval_ms = 1000;
        for (const auto& op : ops_)
            s.ops[op];
        out.push_back(std::move(s));
    }
    ticks_.clear();
    return out;
}

}  // namespace perflab
