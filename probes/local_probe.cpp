// SPDX-License-Identifier: MIT
#include "local_probe.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace perflab {

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

LocalProbe::LocalProbe(bool per_core, std::string proc_root)
    : per_core_(per_core), proc_root_(std::move(proc_root)) {}

ProcSnapshot LocalProbe::read_snapshot() const {
    std::map<std::string, std::string> files;
    for (const auto& path : host_proc_files())
        files[path] = slurp(proc_root_ + path.substr(5));
    return parse_snapshot(files);
}

void LocalProbe::open() {
    last_ = read_snapshot();
    if (last_.meminfo.empty()) throw ProbeError("local probe: cannot read " + proc_root_);
    last_self_ = parse_self_stat(slurp(proc_root_ + "/self/stat"));
}

ProbeReading LocalProbe::poll() {
    ProcSnapshot now = read_snapshot();
    const SelfCounters self = parse_self_stat(slurp(proc_root_ + "/self/stat"));
    ProbeReading r;
    r.ready = true;
    r.values = host_values(last_, now, per_core_);
    const double seconds = now.uptime_s - last_.uptime_s;
    if (seconds > 0)
        r.values["self_cpu_pct"] = 100.0 * double(self.cpu_ticks - last_self_.cpu_ticks) /
                                   double(sysconf(_SC_CLK_TCK)) / seconds;
    r.values["self_rss"] = self.rss_pages * uint64_t(sysconf(_SC_PAGESIZE));
    r.values["self_threads"] = self.threads;
    last_ = std::move(now);
    last_self_ = self;
    return r;
}

}  // namespace perflab
