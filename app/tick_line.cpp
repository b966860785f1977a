// SPDX-License-Identifier: MIT
#include "tick_line.h"

#include "model/format.h"
#include "model/redis_commands.h"

namespace perflab {

TickLine::TickLine(const RunSpec& spec) : kind_(spec.kind) {
    if (!spec.cache) return;
    const auto& c = *spec.cache;
    // cache.commands: each command's rate, under its op name.
    commands_ = command_op_names(c.commands);
    if (!commands_.empty()) {
        gets_ = sets_ = false;
        return;
    }
    gets_ = c.workload != CacheWorkload::set_only &&
            !(c.workload == CacheWorkload::ratio && c.get_ratio == 0);
    sets_ = c.workload != CacheWorkload::get_only &&
            !(c.workload == CacheWorkload::ratio && c.set_ratio == 0);
    // A replay sends what its file holds, whatever the workload says.
    if (c.replay) gets_ = sets_ = true;
    mgets_ = gets_ && c.multiget > 1;
    gets_ = gets_ && !mgets_;
}

std::string TickLine::rate(const std::string& label, const std::string& key, uint64_t count,
                           double secs) {
    const auto per_s = [](double n, double s) { return std::to_string(uint64_t(n / s + 0.5)); };
    if (drain_) return " " + label + ":" + per_s(double(count), secs);
    const uint64_t total = phase_counts_[key] += count;
    const double phase_secs = double(phase_ms_) / 1000;
    return " " + label + ":" + per_s(double(count), secs) + " (avg " +
           per_s(double(total), phase_secs > 0 ? phase_secs : secs) + ")";
}

std::string TickLine::next(const IntervalSample& s) {
    // The replies of the phase before, come in after the next one began: their own line,
    // outside the current phase's averages.
    drain_ = s.phase < phase_;
    if (s.phase > phase_) {
        phase_ = s.phase;
        phase_ms_ = 0;
        phase_counts_.clear();
    }
    if (!drain_) phase_ms_ += s.interval_ms;
    const double secs = s.seconds() > 0 ? s.seconds() : 1.0;
    // Throughput is successes: a failed op is in err, not in get/s or ok/s.
    const auto count = [&](const std::string& op) {
        const auto it = s.ops.find(op);
        return it == s.ops.end() ? uint64_t{0} : it->second.count - it->second.errors;
    };
    std::string line = format_clock(s.t_ms);
    if (drain_) line += " phase " + std::to_string(s.phase + 1) + " replies:";
    if (kind_ == RunKind::cache) {
        if (s.hits + s.misses > 0) line += " hit:" + format_fixed(s.hit_rate() * 100, 2) + "%";
        if (gets_) line += rate("get/s", "get", count("get"), secs);
        if (mgets_) line += rate("mget/s", "mget", count("mget"), secs);
        if (sets_) line += rate("set/s", "set", count("set"), secs);
        for (const auto& name : commands_)
            line += rate(name + "/s", name, count(name), secs);
    } else {
        const uint64_t total = s.total_ops(), ok = total - s.total_errors();
        line += rate("ok/s", "", ok, secs);
        line += " sent/s:" + std::to_string(uint64_t(double(s.sent) / secs + 0.5));
        line += " ok:" + format_fixed(total ? 100.0 * double(ok) / double(total) : 0.0, 2) + "%";
    }
    line += " rx:" + format_bytes(s.bytes_in) + " tx:" + format_bytes(s.bytes_out);
    line += " p99:" + format_latency_ms(s.latency().percentile(99));
    line += " err:" + std::to_string(s.total_errors());
    if (s.late) line += " late:" + std::to_string(s.late);
    if (s.dropped) line += " dropped:" + std::to_string(s.dropped);
    return line;
}

}  // namespace perflab
