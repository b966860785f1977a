// SPDX-License-Identifier: MIT
#include "import_ticks.h"

#include <algorithm>
#include <stdexcept>

namespace perflab {

namespace {

// Tools write a request when it ends, so requests sent in one second keep arriving for about
// as long as the slowest of them took; a second this far behind the newest is seldom touched.
constexpr int64_t kHotSeconds = 10;

int64_t floor_div(int64_t a, int64_t b) {
    return a / b - (a % b < 0);
}

}  // namespace

ImportTicks::FrozenOps ImportTicks::freeze(std::map<std::string, OpSample>&& ops) {
    FrozenOps out;
    for (auto& [name, op] : ops)
        out[name] = {op.count, op.errors, op.latency.encode()};
    ops.clear();
    return out;
}

std::map<std::string, OpSample> ImportTicks::thaw(FrozenOps&& frozen) {
    std::map<std::string, OpSample> out;
    for (auto& [name, op] : frozen) {
        OpSample& o = out[name];
        o.count = op.count;
        o.errors = op.errors;
        auto h = Histogram::decode(op.latency);
        if (!h) throw std::logic_error("an import's own histogram does not decode");
        o.latency = std::move(*h);
    }
    return out;
}

ImportTicks::Frozen ImportTicks::freeze(IntervalSample&& s) {
    Frozen f;
    f.ops = freeze(std::move(s.ops));
    f.transactions = freeze(std::move(s.transactions));
    f.counters = std::move(s);
    return f;
}

IntervalSample ImportTicks::thaw(Frozen&& f) {
    IntervalSample s = std::move(f.counters);
    s.ops = thaw(std::move(f.ops));
    s.transactions = thaw(std::move(f.transactions));
    return s;
}

// The second's tick, thawed when the file has moved past it; the seconds now too far behind
// the newest are frozen.
IntervalSample& ImportTicks::tick(int64_t second) {
    newest_s_ = any_ ? std::max(newest_s_, second) : second;
    first_s_ = any_ ? std::min(first_s_, second) : second;
    any_ = true;
    while (!hot_.empty() && hot_.begin()->first < newest_s_ - kHotSeconds &&
           hot_.begin()->first != second) {
        auto node = hot_.extract(hot_.begin());
        cold_.emplace(node.key(), freeze(std::move(node.mapped())));
    }
    if (const auto it = hot_.find(second); it != hot_.end()) return it->second;
    if (auto node = cold_.extract(second)) return hot_[second] = thaw(std::move(node.mapped()));
    return hot_[second];
}

void ImportTicks::add(const ImportRecord& r) {
    span_.check(floor_div(r.sent_us, 1000), r.line, r.time_field);
    const int64_t second = floor_div(r.sent_us, 1'000'000);
    IntervalSample& s = tick(second);
    if (r.transaction) {
        Transactions& t = transactions_[r.op];
        ++t.count;
        t.failed += !r.ok;
        t.total_us += r.latency_us;
        t.max_us = std::max(t.max_us, r.latency_us);
        OpSample& tick_t = s.transactions[r.op];
        ++tick_t.count;
        tick_t.errors += !r.ok;
        tick_t.latency.record(r.latency_us);
        return;
    }
    ++requests_;
    ops_.insert(r.op);
    OpSample& op = s.ops[r.op];
    ++op.count;
    op.errors += !r.ok;
    op.latency.record(r.latency_us);
    if (r.code) ++s.status_codes[r.code];
    passed_off_status_ += r.ok && r.code && (r.code < 200 || r.code > 399);
    // Like PerfLab's own runs, the error kinds are the failures a status code does not
    // explain: no response, or the tool's verdict on a 2xx/3xx (a JMeter assertion).
    if (!r.ok && (r.code == 0 || (r.code >= 200 && r.code <= 399)))
        ++s.errors[r.error.empty() ? "error" : r.error];
    s.bytes_in += r.bytes_in;
    s.bytes_out += r.bytes_out;
    bytes_in_unknown_ = bytes_in_unknown_ || !r.bytes_in_known;
    bytes_out_unknown_ = bytes_out_unknown_ || !r.bytes_out_known;
    // Sends and replies in µs since the second the tick begins; drain() moves them onto the
    // run's clock, which starts at the first tick.
    const int64_t sent = r.sent_us - second * 1'000'000;
    s.add_sends(1, sent, sent);
    s.add_reply_time(sent + r.latency_us);
}

void ImportTicks::drain(const std::function<void(IntervalSample&&)>& f) {
    if (!requests_) return;
    const int64_t last_s = std::max(hot_.empty() ? first_s_ : hot_.rbegin()->first,
                                    cold_.empty() ? first_s_ : cold_.rbegin()->first);
    for (int64_t second = first_s_; second <= last_s; ++second) {
        IntervalSample s;
        if (auto node = hot_.extract(second))
            s = std::move(node.mapped());
        else if (auto frozen = cold_.extract(second))
            s = thaw(std::move(frozen.mapped()));
        const int64_t offset_us = (second - first_s_) * 1'000'000;
        if (s.sent) {
            s.first_send_us += offset_us;
            s.last_send_us += offset_us;
            s.last_reply_us += offset_us;
        }
        s.t_ms = (second - first_s_ + 1) * 1000;
        s.interval_ms = 1000;
        s.bytes_in_known = !bytes_in_unknown_;
        s.bytes_out_known = !bytes_out_unknown_;
        f(std::move(s));
    }
}

}  // namespace perflab
