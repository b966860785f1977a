// SPDX-License-Identifier: MIT
#include "process_probe.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <set>
#include <sstream>

#include "model/format.h"
#include "ssh_probe.h"

namespace perflab {

namespace {

constexpr int kStartTimeoutMs = 15000;  // pgrep, then jcmd attaching to a JVM
constexpr int kJcmdEveryS = 5;          // jcmd stops the JVM at a safepoint: not every tick

std::string after(const std::string& line, size_t prefix) {
    return line.size() > prefix ? line.substr(prefix) : std::string();
}

std::optional<double> number_after(const std::string& line, size_t prefix) {
    std::istringstream in(after(line, prefix));
    double v = 0;
    if (in >> v) return v;
    return std::nullopt;
}

// "VmRSS:	  123456 kB" → 123456.
std::optional<double> status_number(const std::string& text) {
    const auto colon = text.find(':');
    if (colon == std::string::npos) return std::nullopt;
    return number_after(text, colon + 1);
}

}  // namespace

std::optional<ProcStat> parse_proc_stat(std::string_view line) {
    // The comm may hold spaces and parentheses: it ends at the last ')'.
    const auto open = line.find('(');
    const auto close = line.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return std::nullopt;
    ProcStat s;
    s.pid = std::atol(std::string(line.substr(0, open)).c_str());
    s.comm = std::string(line.substr(open + 1, close - open - 1));
    std::istringstream in{std::string(line.substr(close + 1))};
    std::string field;
    // Fields 3 (state) to 13, then utime and stime.
    for (int i = 3; i <= 13; ++i)
        if (!(in >> field)) return std::nullopt;
    if (!(in >> s.utime >> s.stime) || s.pid <= 0) return std::nullopt;
    return s;
}

std::optional<std::pair<long, std::string>> parse_jcmd_thread(std::string_view line) {
    const auto nid = line.find(" nid=");
    if (!line.starts_with('"') || nid == std::string_view::npos) return std::nullopt;
    const auto name_end = line.rfind('"', nid);
    if (name_end == 0 || name_end == std::string_view::npos) return std::nullopt;
    const std::string id(line.substr(nid + 5, line.find(' ', nid + 5) - nid - 5));
    char* end = nullptr;
    const long tid = id.starts_with("0x") ? std::strtol(id.c_str() + 2, &end, 16)
                                          : std::strtol(id.c_str(), &end, 10);
    if (tid <= 0 || end == nullptr || *end != '\0') return std::nullopt;
    return std::make_pair(tid, std::string(line.substr(1, name_end - 1)));
}

nlohmann::json process_values(const ProcessReading& a, const ProcessReading& b, double hz, int top,
                              const std::map<long, std::string>& names) {
    nlohmann::json v = nlohmann::json::object();
    const double dt = b.uptime_s - a.uptime_s;
    if (dt > 0 && hz > 0) {
        const double pct = 100.0 / (dt * hz);
        v["cpu_user_pct"] = std::max(0.0, b.utime_ticks - a.utime_ticks) * pct;
        v["cpu_system_pct"] = std::max(0.0, b.stime_ticks - a.stime_ticks) * pct;
    }
    if (b.rss_bytes) v["rss"] = *b.rss_bytes;
    if (b.threads) v["threads"] = *b.threads;
    if (b.open_files) v["open_files"] = *b.open_files;
    if (dt > 0 && a.ctx_voluntary && b.ctx_voluntary)
        v["ctx_voluntary_ps"] = std::max(0.0, *b.ctx_voluntary - *a.ctx_voluntary) / dt;
    if (dt > 0 && a.ctx_involuntary && b.ctx_involuntary)
        v["ctx_involuntary_ps"] = std::max(0.0, *b.ctx_involuntary - *a.ctx_involuntary) / dt;
    if (dt <= 0 || hz <= 0) return v;
    // A thread born since the first reading counts from 0: all its CPU is in this interval.
    std::vector<std::pair<double, long>> busy;
    for (const auto& [tid, t] : b.tasks) {
        const auto was = a.tasks.find(tid);
        const double before = was == a.tasks.end() ? 0.0 : was->second.cpu_ticks;
        busy.emplace_back(std::max(0.0, t.cpu_ticks - before) * 100.0 / (dt * hz), tid);
    }
    std::sort(busy.begin(), busy.end(), [](const auto& x, const auto& y) {
        return x.first > y.first || (x.first == y.first && x.second < y.second);
    });
    std::set<std::string> used;
    for (size_t i = 0; i < busy.size() && i < size_t(std::max(0, top)); ++i) {
        const long tid = busy[i].second;
        const auto named = names.find(tid);
        std::string name = named != names.end() ? named->second : b.tasks.at(tid).comm;
        // Threads share a comm ("java", "GC Thread#0" truncated): the tid tells them apart.
        if (!used.insert(name).second) name += " [" + std::to_string(tid) + "]";
        v["thread." + name + ".cpu_pct"] = busy[i].first;
    }
    return v;
}

std::string ProcessProbe::script(const ProcessTarget& t, int tick_ms) {
    std::string s;
    if (t.pid > 0) {
        s += "p=" + std::to_string(t.pid) + "; ";
    } else {
        // The pattern is in this script's own command line (and its subshells'), and may be in
        // the one of the program that started it: those are left out. Every other match is
        // listed, so that a second one is refused, not hidden.
        s += "me=$(tr '\\000' ' ' </proc/$$/cmdline); p=; for q in $(pgrep -f -- " +
             shell_quote(t.match) +
             "); do [ \"$q\" = $$ ] || [ \"$q\" = \"$PPID\" ] && continue; c=$(tr '\\000' ' ' "
             "</proc/$q/cmdline "
             "2>/dev/null) || continue; [ -z \"$c\" ] || [ \"$c\" = \"$me\" ] && continue; "
             "echo \"@@match $q $c\"; [ -z \"$p\" ] && p=$q || p=many; done; "
             "[ \"$p\" = many ] && { echo @@many; exit 1; }; ";
    }
    const std::string tick = format_fixed(tick_ms / 1000.0, 3);
    // The threads known as named are those after jcmd ran: attaching starts a thread in the
    // JVM ("Attach Listener"), which would otherwise look new and ask jcmd again.
    // The clock, the process's times and its threads' are read by one cat, back to back: read
    // a fork or two apart, on a loaded machine the threads' figures covered a later window
    // than the process's (its spinners summed to 114% of a process at 97%).
    s += "[ -n \"$p\" ] && [ -r /proc/$p/stat ] || { echo @@nopid; exit 1; }; "
         "echo \"@@hz $(getconf CLK_TCK)\"; echo \"@@pid $p\"; "
         "j=; [ \"$(cat /proc/$p/comm)\" = java ] && command -v jcmd >/dev/null && j=1; "
         "named=; asked=-" +
         std::to_string(kJcmdEveryS) +
         "; "
         "while [ -d /proc/$p ]; do "
         "u=$(cut -d' ' -f1 /proc/uptime); tids=$(ls /proc/$p/task 2>/dev/null); "
         "if [ -n \"$j\" ] && [ $((${u%.*} - asked)) -ge " +
         std::to_string(kJcmdEveryS) +
         " ]; then "
         "new=; for t in $tids; do case \" $named \" in *\" $t \"*) ;; *) new=1;; esac; done; "
         "if [ -n \"$new\" ]; then asked=${u%.*}; "
         "jcmd $p Thread.print 2>/dev/null | grep '^\".* nid=' | sed 's/^/@@jt /'; "
         "named=$(echo $(ls /proc/$p/task 2>/dev/null)); fi; fi; "
         "cat /proc/uptime /proc/$p/stat /proc/$p/task/*/stat 2>/dev/null | "
         "sed '1s/^/@@t /; 2s/^/@@stat /; 3,$s/^/@@task /'; "
         "grep -E '^(VmRSS|Threads):' /proc/$p/status 2>/dev/null | sed 's/^/@@st /'; "
         "grep -h -E '^(non)?voluntary_ctxt_switches:' /proc/$p/task/*/status 2>/dev/null | "
         "sed 's/^/@@st /'; "
         "[ -r /proc/$p/fd ] && echo \"@@fd $(ls /proc/$p/fd 2>/dev/null | wc -l)\"; "
         "echo @@end || exit 0; sleep " +
         tick + "; done; echo @@gone";
    return s;
}

ProcessProbe::ProcessProbe(ProcessTarget target, int tick_ms)
    : target_(std::move(target)), tick_ms_(tick_ms) {}

ProcessProbe::~ProcessProbe() {
    close();
}

std::string ProcessProbe::source() const {
    std::string where = target_.ssh ? target_.ssh->text() : "local";
    return "process " + where + " " +
           (target_.pid > 0 ? "pid " + std::to_string(target_.pid) : "'" + target_.match + "'");
}

bool ProcessProbe::handle(const std::string& line) {
    if (line.starts_with("@@jt ")) {
        if (auto t = parse_jcmd_thread(after(line, 5))) java_names_[t->first] = t->second;
    } else if (line.starts_with("@@t ")) {
        building_ = ProcessReading{};
        building_.uptime_s = number_after(line, 4).value_or(0);
    } else if (line.starts_with("@@stat ")) {
        if (auto s = parse_proc_stat(after(line, 7))) {
            building_.utime_ticks = s->utime;
            building_.stime_ticks = s->stime;
        }
    } else if (line.starts_with("@@st ")) {
        const std::string text = after(line, 5);
        const auto v = status_number(text);
        if (text.starts_with("VmRSS:") && v)
            building_.rss_bytes = *v * 1024;
        else if (text.starts_with("Threads:"))
            building_.threads = v;
        else if (text.starts_with("voluntary_ctxt_switches:") && v)
            building_.ctx_voluntary = building_.ctx_voluntary.value_or(0) + *v;
        else if (text.starts_with("nonvoluntary_ctxt_switches:") && v)
            building_.ctx_involuntary = building_.ctx_involuntary.value_or(0) + *v;
    } else if (line.starts_with("@@fd ")) {
        building_.open_files = number_after(line, 5);
    } else if (line.starts_with("@@task ")) {
        if (auto s = parse_proc_stat(after(line, 7)))
            building_.tasks[s->pid] = {s->comm, s->utime + s->stime};
    } else if (line == "@@end") {
        if (building_.uptime_s <= 0) return false;
        last_ = building_;
        return true;
    }
    return false;
}

void ProcessProbe::open() {
    const std::string command = "exec sh -c " + shell_quote(script(target_, tick_ms_));
    if (target_.ssh) {
        auto session = std::make_unique<SshSession>(*target_.ssh, target_.ssh_options);
        session->connect();
        stream_ = std::make_unique<SshCommandStream>(std::move(session), command);
    } else {
        stream_ = std::make_unique<LocalCommandStream>(command);
    }
    // Up to the first reading, which is the baseline.
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(kStartTimeoutMs);
    std::vector<std::string> matches;
    while (!last_) {
        std::vector<std::string> lines;
        const bool open = stream_->read_lines(lines, 500);
        for (const auto& line : lines) {
            if (line == "@@nopid")
                throw ProbeError(source() +
                                 (target_.pid > 0 ? ": no such process" : ": no process matches"));
            if (line == "@@many") {
                std::string text = source() + ": " + std::to_string(matches.size()) +
                                   " processes match; name one by its pid:";
                for (const auto& m : matches)
                    text += "\n  " + (m.size() > 300 ? m.substr(0, 300) + "..." : m);
                throw ProbeError(text);
            }
            if (line.starts_with("@@match "))
                matches.push_back(after(line, 8));
            else if (line.starts_with("@@pid "))
                pid_ = std::atol(line.c_str() + 6);
            else if (line.starts_with("@@hz "))
                hz_ = number_after(line, 5).value_or(100);
            else
                handle(line);
        }
        if (!open || std::chrono::steady_clock::now() > deadline)
            throw ProbeError(source() + ": gave no reading of /proc" +
                             (pid_ > 0 ? " (pid " + std::to_string(pid_) + " exited?)" : ""));
    }
    emitted_ = last_;
}

ProbeReading ProcessProbe::poll() {
    ProbeReading r;
    if (!stream_) {
        r.ready = r.gap = true;
        return r;
    }
    std::vector<std::string> lines;
    const bool open = drain_lines(*stream_, lines);
    bool fresh = false;
    bool gone = false;
    for (const auto& line : lines) {
        fresh = handle(line) || fresh;
        gone = gone || line == "@@gone";
    }
    if (fresh && emitted_) {
        r.ready = true;
        r.values = process_values(*emitted_, *last_, hz_, target_.top, java_names_);
        r.values["pid"] = pid_;
        emitted_ = last_;
    }
    if (!open || gone) {
        r.ready = r.gap = true;
        r.values = nlohmann::json::object();
        r.events.push_back({0, "error",
                            source() + (gone ? ": pid " + std::to_string(pid_) + " exited"
                                             : ": its /proc loop ended")});
        stream_.reset();
    }
    return r;
}

void ProcessProbe::close() {
    stream_.reset();
}

}  // namespace perflab
