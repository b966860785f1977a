// SPDX-License-Identifier: MIT
#include "console_observer.h"

#include <string>

#include "model/format.h"

namespace perflab {

std::string tick_line(RunKind kind, const IntervalSample& s) {
    const double secs = s.seconds() > 0 ? s.seconds() : 1.0;
    const auto per_s = [&](uint64_t n) { return std::to_string(uint64_t(double(n) / secs + 0.5)); };
    std::string line = format_clock(s.t_ms);
    const auto count = [&](const char* op) {
        const auto it = s.ops.find(op);
        return it == s.ops.end() ? uint64_t{0} : it->second.count;
    };
    if (kind == RunKind::cache) {
        line += " hit:" + format_fixed(s.hit_rate() * 100, 2) + "%";
        line += " get/s:" + per_s(count("get")) + " set/s:" + per_s(count("set"));
    } else {
        line += " req/s:" + per_s(s.total_ops());
        uint64_t ok = 0;
        for (const auto& [code, n] : s.status_codes)
            if (code >= 200 && code < 400) ok += n;
        const uint64_t total = s.total_ops();
        line += " ok:" + format_fixed(total ? 100.0 * double(ok) / double(total) : 0.0, 2) + "%";
    }
    line += " in:" + format_bytes(s.bytes_in) + " out:" + format_bytes(s.bytes_out);
    line += " p99:" + format_latency_ms(s.latency().percentile(99));
    line += " err:" + std::to_string(s.total_errors());
    if (s.late) line += " late:" + std::to_string(s.late);
    return line;
}

void ConsoleObserver::on_start(const RunSpec& spec) {
    kind_ = spec.kind;
    std::fprintf(out_, "run \"%s\" (%s), %zu phase(s)", spec.name.c_str(), to_string(spec.kind),
                 spec.phases.size());
    if (spec.seed) std::fprintf(out_, ", seed %llu", static_cast<unsigned long long>(*spec.seed));
    std::fprintf(out_, "\n");
    std::fflush(out_);
}

void ConsoleObserver::on_sample(const IntervalSample& sample) {
    std::fprintf(out_, "%s\n", tick_line(kind_, sample).c_str());
    std::fflush(out_);
}

void ConsoleObserver::on_event(const RunEvent& event) {
    std::fprintf(out_, "%s %s\n", format_clock(event.t_ms).c_str(), event.text.c_str());
    std::fflush(out_);
}

}  // namespace perflab
