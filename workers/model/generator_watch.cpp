// SPDX-License-Identifier: MIT
#include "generator_watch.h"

#include <sys/resource.h>

#include <algorithm>
#include <thread>

#include "format.h"

namespace perflab {

namespace {

double process_cpu_s() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const auto s = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    return s(u.ru_utime) + s(u.ru_stime);
}

}  // namespace

GeneratorWatch::GeneratorWatch(int cores)
    : cores_(std::max(1, cores)), last_cpu_s_(process_cpu_s()) {}

void GeneratorWatch::on_clock(int64_t) {
    last_cpu_s_ = process_cpu_s();
}

void GeneratorWatch::on_sample(const IntervalSample& s) {
    raised_ = cleared_ = false;
    if (s.drain || s.interval_ms <= 0) return;
    ++ticks_;
    // Over the tick's own length, not the time between two deliveries: ticks handed over in
    // a burst (a busy GUI thread, a test) would look like a process using many cores.
    const double cpu_s = process_cpu_s();
    const double cpu_pct = 100 * (cpu_s - last_cpu_s_) / s.seconds();
    last_cpu_s_ = cpu_s;
    std::string why;
    if (s.sent > 0 && double(s.late) > kLateShare * double(s.sent))
        why = std::to_string(s.late) + " of " + std::to_string(s.sent) + " sends (" +
              format_fixed(100.0 * double(s.late) / double(s.sent), 1) +
              "%) started over 1 ms late: the open-model schedule is not kept";
    else if (cpu_pct > kCpuShare * 100 * cores_)
        why = "PerfLab itself used " + format_fixed(cpu_pct, 0) + "% of a core, of the " +
              format_fixed(100 * cores_, 0) + "% its engine can use";
    if (!why.empty()) {
        ++limited_ticks_;
        clear_run_ = 0;
        raised_ = !limited_;
        limited_ = true;
        reason_ = std::move(why);
        return;
    }
    if (limited_ && ++clear_run_ >= kClearTicks) {
        limited_ = false;
        cleared_ = true;
    }
}

std::string GeneratorWatch::summary() const {
    if (limited_ticks_ == 0) return "";
    return "limited in " + std::to_string(limited_ticks_) + " of " + std::to_string(ticks_) +
           " ticks (last: " + reason_ + ")";
}

int generator_cores(const RunSpec& spec) {
    const int machine = int(std::max(1u, std::thread::hardware_concurrency()));
    const int threads = spec.http ? spec.http->threads : spec.cache ? spec.cache->threads : 0;
    return threads > 0 ? std::min(threads, machine) : machine;
}

}  // namespace perflab
