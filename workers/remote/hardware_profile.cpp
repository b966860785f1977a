// SPDX-License-Identifier: MIT
#include "hardware_profile.h"

#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>

#include "model/format.h"

namespace perflab {

namespace {

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

// Calls f(key, value) for every "key<sep>value" line.
template <class F>
void for_each_pair(std::string_view text, char sep, F&& f) {
    while (!text.empty()) {
        const auto nl = text.find('\n');
        const std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        const auto at = line.find(sep);
        if (at != std::string_view::npos) f(trim(line.substr(0, at)), trim(line.substr(at + 1)));
    }
}

uint64_t to_u64(std::string_view s) {
    uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') break;
        v = v * 10 + uint64_t(c - '0');
    }
    return v;
}

std::string unquote(std::string_view s) {
    if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
        s = s.substr(1, s.size() - 2);
    return std::string(s);
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string read_line(const std::string& path) {
    return std::string(trim(read_text(path)));
}

// "32768\t60999" -> "32768 60999": the form sysctl prints.
std::string squeeze_spaces(std::string_view s) {
    std::string out;
    bool space = false;
    for (char c : trim(s)) {
        if (c == ' ' || c == '\t') {
            space = true;
            continue;
        }
        if (space && !out.empty()) out.push_back(' ');
        space = false;
        out.push_back(c);
    }
    return out;
}

// Cache sizes from sysfs ("L1d": "32K"), once per level and type.
void read_caches(HardwareProfile& out) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path dir = "/sys/devices/system/cpu/cpu0/cache";
    std::map<std::string, std::string> caches;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("index", 0) != 0) continue;
        const std::string level = read_line(entry.path() / "level");
        const std::string type = read_line(entry.path() / "type");
        const std::string size = read_line(entry.path() / "size");
        if (level.empty() || size.empty()) continue;
        std::string key = "L" + level;
        if (type == "Data") key += "d";
        if (type == "Instruction") key += "i";
        caches[key] = size;
    }
    if (!caches.empty()) out.caches = std::move(caches);
}

void read_disks(HardwareProfile& out) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const std::string mounts = read_text("/proc/mounts");
    for (const auto& entry : fs::directory_iterator("/sys/block", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("loop", 0) == 0 || name.rfind("ram", 0) == 0) continue;
        const uint64_t sectors = to_u64(read_line((entry.path() / "size").string()));
        if (sectors == 0) continue;  // an empty zram or card reader
        out.disks.push_back({name, sectors * 512, mount_for_device(mounts, name)});
    }
    std::sort(out.disks.begin(), out.disks.end(),
              [](const DiskInfo& a, const DiskInfo& b) { return a.device < b.device; });
}

void read_limits(HardwareProfile& out) {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) out.open_files_limit = uint64_t(limit.rlim_cur);
    const std::pair<const char*, const char*> settings[] = {
        {"net.core.somaxconn", "/proc/sys/net/core/somaxconn"},
        {"net.ipv4.ip_local_port_range", "/proc/sys/net/ipv4/ip_local_port_range"},
        {"net.ipv4.tcp_tw_reuse", "/proc/sys/net/ipv4/tcp_tw_reuse"},
    };
    for (const auto& [key, path] : settings) {
        const std::string value = squeeze_spaces(read_text(path));
        if (!value.empty()) out.net_settings[key] = value;
    }
}

// FNV-1a: a short, stable name for a long identity text.
std::string fnv1a_hex(std::string_view text) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

}  // namespace

std::string HardwareProfile::identity() const {
    nlohmann::json j = to_json(*this);
    j.erase("mhz");  // the current clock of a scaling CPU, not a property of the machine
    return fnv1a_hex(j.dump());
}

nlohmann::json to_json(const HardwareProfile& p) {
    nlohmann::json disks = nlohmann::json::array();
    for (const auto& d : p.disks)
        disks.push_back({{"device", d.device}, {"size_bytes", d.size_bytes}, {"mount", d.mount}});
    return {{"hostname", p.hostname},
            {"cpu_model", p.cpu_model},
            {"sockets", p.sockets},
            {"cores", p.cores},
            {"threads", p.threads},
            {"mhz", p.mhz},
            {"caches", p.caches},
            {"memory_total_bytes", p.memory_total_bytes},
            {"swap_total_bytes", p.swap_total_bytes},
            {"disks", disks},
            {"os_name", p.os_name},
            {"os_version", p.os_version},
            {"kernel", p.kernel},
            {"perflab_version", p.perflab_version},
            {"open_files_limit", p.open_files_limit},
            {"net_settings", p.net_settings},
            {"server_notes", p.server_notes}};
}

HardwareProfile profile_from_json(const nlohmann::json& j) {
    HardwareProfile p;
    if (!j.is_object()) return p;
    p.hostname = j.value("hostname", "");
    p.cpu_model = j.value("cpu_model", "");
    p.sockets = j.value("sockets", 0);
    p.cores = j.value("cores", 0);
    p.threads = j.value("threads", 0);
    p.mhz = j.value("mhz", 0.0);
    p.caches = j.value("caches", std::map<std::string, std::string>{});
    p.memory_total_bytes = j.value("memory_total_bytes", uint64_t{0});
    p.swap_total_bytes = j.value("swap_total_bytes", uint64_t{0});
    if (const auto it = j.find("disks"); it != j.end() && it->is_array())
        for (const auto& d : *it)
            p.disks.push_back(
                {d.value("device", ""), d.value("size_bytes", uint64_t{0}), d.value("mount", "")});
    p.os_name = j.value("os_name", "");
    p.os_version = j.value("os_version", "");
    p.kernel = j.value("kernel", "");
    p.perflab_version = j.value("perflab_version", "");
    p.open_files_limit = j.value("open_files_limit", uint64_t{0});
    p.net_settings = j.value("net_settings", std::map<std::string, std::string>{});
    p.server_notes = j.value("server_notes", "");
    return p;
}

void parse_cpuinfo(std::string_view text, HardwareProfile& out) {
    int processors = 0;
    std::string physical;
    std::set<std::string> sockets;
    std::set<std::pair<std::string, std::string>> cores;
    for_each_pair(text, ':', [&](std::string_view key, std::string_view value) {
        if (key == "processor") {
            ++processors;
            physical = "0";
        } else if (key == "model name" && out.cpu_model.empty()) {
            out.cpu_model = std::string(value);
        } else if (key == "cpu MHz" && out.mhz == 0) {
            out.mhz = parse_number(value).value_or(0);
        } else if (key == "cache size" && out.caches.empty()) {
            out.caches["cache"] = std::string(value);
        } else if (key == "physical id") {
            physical = std::string(value);
            sockets.insert(physical);
        } else if (key == "core id") {
            cores.emplace(physical, std::string(value));
        }
    });
    out.threads = processors;
    // Without topology lines (some VMs and ARM kernels) every logical CPU counts as a core.
    out.sockets = sockets.empty() ? (processors > 0 ? 1 : 0) : int(sockets.size());
    out.cores = cores.empty() ? processors : int(cores.size());
}

void parse_meminfo(std::string_view text, HardwareProfile& out) {
    for_each_pair(text, ':', [&](std::string_view key, std::string_view value) {
        if (key == "MemTotal") out.memory_total_bytes = to_u64(value) * 1024;
        if (key == "SwapTotal") out.swap_total_bytes = to_u64(value) * 1024;
    });
}

void parse_os_release(std::string_view text, HardwareProfile& out) {
    std::string name, pretty, version_id, version;
    for_each_pair(text, '=', [&](std::string_view key, std::string_view value) {
        if (key == "NAME") name = unquote(value);
        if (key == "PRETTY_NAME") pretty = unquote(value);
        if (key == "VERSION_ID") version_id = unquote(value);
        if (key == "VERSION") version = unquote(value);
    });
    out.os_name = !name.empty() ? name : pretty;
    out.os_version = !version.empty() ? version : version_id;
}

std::string mount_for_device(std::string_view proc_mounts, const std::string& device) {
    const std::string whole = "/dev/" + device;
    while (!proc_mounts.empty()) {
        const auto nl = proc_mounts.find('\n');
        std::string_view line = proc_mounts.substr(0, nl);
        proc_mounts =
            nl == std::string_view::npos ? std::string_view{} : proc_mounts.substr(nl + 1);
        const auto sp = line.find(' ');
        if (sp == std::string_view::npos) continue;
        const std::string_view source = line.substr(0, sp);
        line.remove_prefix(sp + 1);
        const std::string_view target = line.substr(0, line.find(' '));
        if (source.rfind(whole, 0) != 0) continue;
        // /dev/sda1 and /dev/nvme0n1p2 belong to the disk; /dev/sdab does not belong to sda.
        const std::string_view rest = source.substr(whole.size());
        const bool partition =
            rest.empty() || (rest.find_first_not_of("p0123456789") == std::string_view::npos &&
                             rest.back() >= '0' && rest.back() <= '9');
        if (partition) return std::string(target);
    }
    return {};
}

HardwareProfile local_hardware_profile() {
    HardwareProfile p;
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) == 0) p.hostname = host;
    parse_cpuinfo(read_text("/proc/cpuinfo"), p);
    read_caches(p);
    parse_meminfo(read_text("/proc/meminfo"), p);
    parse_os_release(read_text("/etc/os-release"), p);
    utsname uts{};
    if (uname(&uts) == 0) p.kernel = std::string(uts.sysname) + " " + uts.release;
    read_disks(p);
    p.perflab_version = PERFLAB_VERSION;
    read_limits(p);
    return p;
}

}  // namespace perflab
