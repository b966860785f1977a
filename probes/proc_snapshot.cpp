// SPDX-License-Identifier: MIT
#include "proc_snapshot.h"

#include <charconv>
#include <set>

namespace perflab {

namespace {

// Whitespace-separated fields of one line.
std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
            ++i;
        const size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t')
            ++i;
        if (i > start) out.push_back(line.substr(start, i - start));
    }
    return out;
}

template <typename F>
void for_each_line(std::string_view text, F&& f) {
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        f(text.substr(0, nl));
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
}

uint64_t to_u64(std::string_view s) {
    uint64_t v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}

double to_double(std::string_view s) {
    double v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
}

CpuTimes cpu_times(const std::vector<std::string_view>& f) {
    auto at = [&f](size_t i) { return i < f.size() ? to_u64(f[i]) : 0; };
    return {at(1), at(2), at(3), at(4), at(5), at(6), at(7), at(8)};
}

// sda1 beside sda, nvme0n1p1 beside nvme0n1: partitions are counted in their disk already.
bool is_partition(const std::string& name, const std::set<std::string>& names) {
    for (size_t len = name.size() - 1; len > 0; --len)
        if (names.count(name.substr(0, len))) return true;
    return false;
}

bool is_virtual_disk(std::string_view name) {
    return name.starts_with("loop") || name.starts_with("ram") || name.starts_with("zram");
}

}  // namespace

void parse_uptime(std::string_view text, ProcSnapshot& out) {
    const auto f = fields(text.substr(0, text.find('\n')));
    if (!f.empty()) out.uptime_s = to_double(f[0]);
}

void parse_proc_stat(std::string_view text, ProcSnapshot& out) {
    out.cores.clear();
    for_each_line(text, [&out](std::string_view line) {
        const auto f = fields(line);
        if (f.empty()) return;
        if (f[0] == "cpu")
            out.cpu = cpu_times(f);
        else if (f[0].starts_with("cpu"))
            out.cores.push_back(cpu_times(f));
        else if (f[0] == "ctxt" && f.size() > 1)
            out.ctxt = to_u64(f[1]);
        else if (f[0] == "procs_running" && f.size() > 1)
            out.procs_running = to_u64(f[1]);
    });
}

void parse_loadavg(std::string_view text, ProcSnapshot& out) {
    const auto f = fields(text.substr(0, text.find('\n')));
    if (f.size() < 3) return;
    out.load1 = to_double(f[0]);
    out.load5 = to_double(f[1]);
    out.load15 = to_double(f[2]);
}

void parse_meminfo_values(std::string_view text, ProcSnapshot& out) {
    for_each_line(text, [&out](std::string_view line) {
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos) return;
        const auto f = fields(line.substr(colon + 1));
        if (f.empty()) return;
        const uint64_t unit = f.size() > 1 && f[1] == "kB" ? 1024 : 1;
        out.meminfo[std::string(line.substr(0, colon))] = to_u64(f[0]) * unit;
    });
}

void parse_net_dev(std::string_view text, ProcSnapshot& out) {
    for_each_line(text, [&out](std::string_view line) {
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos || line.find('|') != std::string_view::npos) return;
        const auto name = fields(line.substr(0, colon));
        const auto f = fields(line.substr(colon + 1));
        if (name.size() != 1 || f.size() < 9) return;
        out.net[std::string(name[0])] = {to_u64(f[0]), to_u64(f[8])};
    });
}

void parse_diskstats(std::string_view text, ProcSnapshot& out) {
    std::map<std::string, DiskCounters> all;
    for_each_line(text, [&all](std::string_view line) {
        const auto f = fields(line);
        if (f.size() < 14 || is_virtual_disk(f[2])) return;
        const uint64_t reads = to_u64(f[3]), writes = to_u64(f[7]);
        if (reads == 0 && writes == 0) return;
        all[std::string(f[2])] = {to_u64(f[5]), to_u64(f[9]), to_u64(f[12])};
    });
    std::set<std::string> names;
    for (const auto& [name, c] : all)
        names.insert(name);
    for (auto& [name, c] : all)
        if (!is_partition(name, names)) out.disks[name] = c;
}

void parse_net_snmp(std::string_view text, ProcSnapshot& out) {
    std::vector<std::string_view> header;
    for_each_line(text, [&](std::string_view line) {
        if (!line.starts_with("Tcp:")) return;
        const auto f = fields(line);
        if (header.empty()) {
            header = f;
            return;
        }
        for (size_t i = 1; i < f.size() && i < header.size(); ++i)
            if (header[i] == "RetransSegs") out.tcp_retrans = to_u64(f[i]);
    });
}

const std::vector<std::string>& host_proc_files() {
    static const std::vector<std::string> files{"/proc/uptime",  "/proc/stat",    "/proc/loadavg",
                                                "/proc/meminfo", "/proc/net/dev", "/proc/diskstats",
                                                "/proc/net/snmp"};
    return files;
}

std::map<std::string, std::string> split_head_output(std::string_view text) {
    std::map<std::string, std::string> out;
    std::string* current = nullptr;
    for_each_line(text, [&](std::string_view line) {
        if (line.starts_with("==> ") && line.ends_with(" <==")) {
            current = &out[std::string(line.substr(4, line.size() - 8))];
            return;
        }
        if (!current) return;
        current->append(line);
        current->push_back('\n');
    });
    return out;
}

ProcSnapshot parse_snapshot(const std::map<std::string, std::string>& files) {
    using Parser = void (*)(std::string_view, ProcSnapshot&);
    static const std::map<std::string, Parser> parsers{
        {"/proc/uptime", parse_uptime},    {"/proc/stat", parse_proc_stat},
        {"/proc/loadavg", parse_loadavg},  {"/proc/meminfo", parse_meminfo_values},
        {"/proc/net/dev", parse_net_dev},  {"/proc/diskstats", parse_diskstats},
        {"/proc/net/snmp", parse_net_snmp}};
    ProcSnapshot s;
    for (const auto& [path, parse] : parsers)
        if (auto it = files.find(path); it != files.end()) parse(it->second, s);
    return s;
}

}  // namespace perflab
