// SPDX-License-Identifier: MIT
#include "ssh_probe.h"

#include <algorithm>

namespace perflab {

namespace {

constexpr std::string_view kEnd = "@@end\n";
constexpr auto kMaxBackoff = std::chrono::seconds(10);

std::string joined_files() {
    std::string out;
    for (const auto& f : host_proc_files())
        out += " " + f;
    return out;
}

std::string trimmed(std::string_view s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.remove_suffix(1);
    return std::string(s);
}

void add_disks(const std::map<std::string, std::string>& files, HardwareProfile& profile) {
    constexpr std::string_view prefix = "/sys/block/";
    for (const auto& [path, text] : files) {
        if (!path.starts_with(prefix) || !path.ends_with("/size")) continue;
        const std::string device = path.substr(prefix.size(), path.size() - prefix.size() - 5);
        const uint64_t sectors = std::strtoull(text.c_str(), nullptr, 10);
        if (sectors == 0 || device.starts_with("loop") || device.starts_with("ram") ||
            device.starts_with("zram"))
            continue;
        profile.disks.push_back({device, sectors * 512, {}});
    }
}

}  // namespace

std::string SshProbe::loop_command() {
    // Run by the user's login shell, whatever it is; the loop itself is POSIX sh. stdin EOF
    // (the channel closed) ends `read`, and with it the loop: nothing stays behind.
    return "exec sh -c 'exec 2>/dev/null; echo \"@@pid $$\"; while read -r _; do head -n 100000" +
           joined_files() + "; echo @@end; done'";
}

HardwareProfile remote_hardware_profile(SshSession& session) {
    const auto files = split_head_output(session.run(
        "head -n 100000 /proc/cpuinfo /proc/meminfo /etc/os-release /proc/sys/kernel/osrelease "
        "/proc/sys/kernel/hostname /sys/block/*/size 2>/dev/null"));
    auto text = [&files](const char* path) {
        const auto it = files.find(path);
        return it == files.end() ? std::string() : it->second;
    };
    HardwareProfile p;
    parse_cpuinfo(text("/proc/cpuinfo"), p);
    parse_meminfo(text("/proc/meminfo"), p);
    parse_os_release(text("/etc/os-release"), p);
    p.kernel = trimmed(text("/proc/sys/kernel/osrelease"));
    p.hostname = trimmed(text("/proc/sys/kernel/hostname"));
    add_disks(files, p);
    return p;
}

SshProbe::SshProbe(SshTarget target, SshOptions options, bool per_core)
    : target_(std::move(target)), options_(std::move(options)), per_core_(per_core) {}

SshProbe::~SshProbe() {
    close();
}

void SshProbe::connect() {
    close();
    auto session = std::make_unique<SshSession>(target_, options_);
    session->connect();
    loop_ = session->exec(loop_command());
    session_ = std::move(session);
    buffer_.clear();
    loop_->read_until(buffer_, "\n", options_.timeout_s * 1000);
    if (buffer_.starts_with("@@pid ")) remote_pid_ = std::atoi(buffer_.c_str() + 6);
    buffer_.erase(0, buffer_.find('\n') + 1);
}

// The first window starts after everything the probe does to open (its own exec, shell and
// reads of the hardware profile), or the first tick would measure the probe itself.
void SshProbe::open() {
    connect();
    profile_ = remote_hardware_profile(*session_);
    last_ = request_snapshot();
}

ProcSnapshot SshProbe::request_snapshot() {
    loop_->write("\n");
    loop_->read_until(buffer_, kEnd, options_.timeout_s * 1000);
    const size_t end = buffer_.find(kEnd);
    ProcSnapshot s = parse_snapshot(split_head_output(std::string_view(buffer_).substr(0, end)));
    buffer_.erase(0, end + kEnd.size());
    return s;
}

void SshProbe::drop(ProbeReading& reading, const SshError& error) {
    // A cancel is the user's own Stop, not news about the host.
    if (loop_ && error.kind() != SshError::Kind::cancelled)
        reading.events.push_back(
            {0, "error", "probe " + source() + ": " + error.what() + "; retrying"});
    close();
    backoff_ = std::min<std::chrono::milliseconds>(
        kMaxBackoff, std::max<std::chrono::milliseconds>(std::chrono::seconds(1), backoff_ * 2));
    next_attempt_ = Clock::now() + backoff_;
    reading.gap = true;
}

ProbeReading SshProbe::poll() {
    ProbeReading r;
    r.ready = true;
    if (!loop_) {
        // Reconnecting: this tick has no data either way; the next one measures from here.
        r.gap = true;
        if (Clock::now() < next_attempt_) return r;
        try {
            connect();
            last_ = request_snapshot();
            backoff_ = {};
            r.events.push_back({0, "probe", "probe " + source() + ": reconnected"});
        } catch (const SshError& e) {
            drop(r, e);
        }
        return r;
    }
    try {
        ProcSnapshot now = request_snapshot();
        r.values = host_values(last_, now, per_core_);
        last_ = std::move(now);
    } catch (const SshError& e) {
        drop(r, e);
    }
    return r;
}

void SshProbe::close() {
    loop_.reset();
    session_.reset();
}

}  // namespace perflab
