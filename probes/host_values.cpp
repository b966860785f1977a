// SPDX-License-Identifier: MIT
#include "host_values.h"

#include <algorithm>
#include <charconv>
#include <vector>

namespace perflab {

namespace {

uint64_t delta(uint64_t before, uint64_t after) {
    return after > before ? after - before : 0;
}

double pct(uint64_t part, uint64_t whole) {
    return whole ? 100.0 * double(part) / double(whole) : 0;
}

void add_cpu(nlohmann::json& v, const CpuTimes& a, const CpuTimes& b) {
    const uint64_t total = delta(a.total(), b.total());
    const uint64_t idle = delta(a.idle, b.idle), iowait = delta(a.iowait, b.iowait);
    v["cpu_user"] = pct(delta(a.user + a.nice, b.user + b.nice), total);
    v["cpu_system"] = pct(delta(a.system + a.irq + a.softirq, b.system + b.irq + b.softirq), total);
    v["cpu_iowait"] = pct(iowait, total);
    v["cpu_steal"] = pct(delta(a.steal, b.steal), total);
    v["cpu_idle"] = pct(idle, total);
    v["cpu_busy"] = total ? 100.0 - pct(idle + iowait, total) : 0.0;
}

double core_busy(const CpuTimes& a, const CpuTimes& b) {
    const uint64_t total = delta(a.total(), b.total());
    return total ? 100.0 - pct(delta(a.idle + a.iowait, b.idle + b.iowait), total) : 0.0;
}

uint64_t mem(const ProcSnapshot& s, const char* name) {
    const auto it = s.meminfo.find(name);
    return it == s.meminfo.end() ? 0 : it->second;
}

void add_memory(nlohmann::json& v, const ProcSnapshot& s) {
    const uint64_t total = mem(s, "MemTotal"), available = mem(s, "MemAvailable");
    v["mem_total"] = total;
    v["mem_available"] = available;
    v["mem_used"] = delta(available, total);
    v["mem_cached"] = mem(s, "Cached");
    v["swap_used"] = delta(mem(s, "SwapFree"), mem(s, "SwapTotal"));
}

void add_net(nlohmann::json& v, const ProcSnapshot& a, const ProcSnapshot& b, double seconds) {
    double rx = 0, tx = 0;
    for (const auto& [name, after] : b.net) {
        const auto it = a.net.find(name);
        if (it == a.net.end()) continue;
        const double r = double(delta(it->second.rx_bytes, after.rx_bytes)) / seconds;
        const double t = double(delta(it->second.tx_bytes, after.tx_bytes)) / seconds;
        v["net." + name + ".rx_Bps"] = r;
        v["net." + name + ".tx_Bps"] = t;
        if (name == "lo") continue;
        rx += r;
        tx += t;
    }
    v["net_rx_Bps"] = rx;
    v["net_tx_Bps"] = tx;
}

void add_disks(nlohmann::json& v, const ProcSnapshot& a, const ProcSnapshot& b, double seconds) {
    for (const auto& [name, after] : b.disks) {
        const auto it = a.disks.find(name);
        if (it == a.disks.end()) continue;
        const auto& before = it->second;
        const std::string prefix = "disk." + name + ".";
        v[prefix + "read_Bps"] =
            double(delta(before.sectors_read, after.sectors_read)) * 512 / seconds;
        v[prefix + "write_Bps"] =
            double(delta(before.sectors_written, after.sectors_written)) * 512 / seconds;
        v[prefix + "util_pct"] =
            std::min(100.0, double(delta(before.io_ms, after.io_ms)) / (seconds * 10));
    }
}

}  // namespace

nlohmann::json host_values(const ProcSnapshot& before, const ProcSnapshot& after, bool per_core) {
    nlohmann::json v = nlohmann::json::object();
    add_cpu(v, before.cpu, after.cpu);
    if (per_core)
        for (size_t i = 0; i < after.cores.size() && i < before.cores.size(); ++i)
            v["cpu" + std::to_string(i) + "_busy"] = core_busy(before.cores[i], after.cores[i]);
    v["load1"] = after.load1;
    v["load5"] = after.load5;
    v["load15"] = after.load15;
    v["procs_running"] = after.procs_running;
    add_memory(v, after);
    // Uptime has 10 ms resolution; a zero interval (two reads in one tick) gives no rates.
    const double seconds = after.uptime_s - before.uptime_s;
    if (seconds > 0) {
        add_net(v, before, after, seconds);
        add_disks(v, before, after, seconds);
        v["ctx_switches_ps"] = double(delta(before.ctxt, after.ctxt)) / seconds;
        v["tcp_retrans_ps"] = double(delta(before.tcp_retrans, after.tcp_retrans)) / seconds;
    }
    return v;
}

SelfCounters parse_self_stat(std::string_view text) {
    // The command name may hold spaces and parentheses: fields count from the last ')'.
    const size_t paren = text.rfind(')');
    if (paren == std::string_view::npos) return {};
    std::vector<uint64_t> f;  // f[0] is field 3 (state) and reads as 0
    std::string_view rest = text.substr(paren + 1);
    while (!rest.empty()) {
        while (!rest.empty() && rest.front() == ' ')
            rest.remove_prefix(1);
        const size_t end = std::min(rest.find(' '), rest.size());
        uint64_t value = 0;
        std::from_chars(rest.data(), rest.data() + end, value);
        f.push_back(value);
        rest.remove_prefix(end);
    }
    auto at = [&f](size_t field) { return field - 3 < f.size() ? f[field - 3] : 0; };
    return {at(14) + at(15), at(24), at(20)};
}

}  // namespace perflab
