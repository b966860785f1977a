// SPDX-License-Identifier: MIT
#include "jvm_probe.h"

#include <cctype>
#include <chrono>
#include <sstream>

#include "model/format.h"
#include "ssh_probe.h"

namespace perflab {

namespace {

constexpr int kStartTimeoutMs = 15000;  // pgrep, then a JVM starting jstat
constexpr size_t kMaxCommandShown = 300;

// A command line read from /proc ends in the space its last NUL became.
std::string trimmed(std::string text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.pop_back();
    return text;
}

// A Java command line can run to kilobytes of class path: enough of it to tell processes apart.
std::string shortened(const std::string& command) {
    return command.size() > kMaxCommandShown ? command.substr(0, kMaxCommandShown) + "..."
                                             : command;
}

// The first line of a tool's complaint, without the Java exception's class name.
std::string first_words(const std::vector<std::string>& lines) {
    const std::string& line = lines.front();
    const auto at = line.find("Exception: ");
    return trimmed(at == std::string::npos ? line : line.substr(at + 11));
}

// An occupancy as jstat gave it; "-" when it had none (a column jstat printed as "-").
std::string occupancy(const std::map<std::string, double>& m, const char* column) {
    const auto it = m.find(column);
    if (it == m.end()) return "-";
    std::ostringstream out;
    out << it->second << "%";
    return out.str();
}

std::vector<std::string> words(std::string_view line) {
    std::istringstream in{std::string(line)};
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    return out;
}

double get(const std::map<std::string, double>& m, const char* name) {
    const auto it = m.find(name);
    return it == m.end() ? 0.0 : it->second;
}

}  // namespace

std::map<std::string, double> parse_jstat_line(const std::vector<std::string>& header,
                                               std::string_view line) {
    std::map<std::string, double> out;
    const auto w = words(line);
    for (size_t i = 0; i < w.size() && i < header.size(); ++i)
        if (w[i] != "-") out[header[i]] = parse_number(w[i]).value_or(0);
    return out;
}

nlohmann::json jvm_values(const std::map<std::string, double>& before,
                          const std::map<std::string, double>& after) {
    nlohmann::json v = nlohmann::json::object();
    const std::pair<const char*, const char*> pct[] = {{"E", "eden_pct"},
                                                       {"O", "old_pct"},
                                                       {"M", "metaspace_pct"},
                                                       {"S0", "s0_pct"},
                                                       {"S1", "s1_pct"}};
    for (const auto& [column, key] : pct)
        if (after.count(column)) v[key] = after.at(column);
    v["young_gc"] = uint64_t(get(after, "YGC"));
    v["full_gc"] = uint64_t(get(after, "FGC"));
    v["young_gc_delta"] = uint64_t(std::max(0.0, get(after, "YGC") - get(before, "YGC")));
    v["full_gc_delta"] = uint64_t(std::max(0.0, get(after, "FGC") - get(before, "FGC")));
    v["young_gc_ms"] = std::max(0.0, get(after, "YGCT") - get(before, "YGCT")) * 1000;
    v["full_gc_ms"] = std::max(0.0, get(after, "FGCT") - get(before, "FGCT")) * 1000;
    v["gc_time_s"] = get(after, "GCT");
    return v;
}

std::string JvmProbe::script(const JvmTarget& t, int tick_ms) {
    // The pattern is in this script's own command line, so pgrep finds the script too: keep
    // only processes that are a JVM. The relay kills jstat once its output has nowhere to
    // go (a JVM ignores SIGPIPE and would keep sampling), or when the channel closes.
    std::string s = "trap '' PIPE; ";
    if (t.pid > 0)
        s += "p=" + std::to_string(t.pid) + "; ";
    else
        // Every JVM the pattern matches is listed, so that a second one is refused, not hidden.
        s += "p=; for q in $(pgrep -f -- " + shell_quote(t.match) +
             "); do [ \"$(cat /proc/$q/comm 2>/dev/null)\" = java ] || continue; "
             "echo \"@@match $q $(tr '\\000' ' ' </proc/$q/cmdline 2>/dev/null)\"; "
             "[ -z \"$p\" ] && p=$q || p=many; done; "
             "[ \"$p\" = many ] && { echo @@many; exit 1; }; ";
    s += "[ -n \"$p\" ] && [ -r /proc/$p/cmdline ] || { echo @@nopid; exit 1; }; "
         "command -v jstat >/dev/null || { echo @@nojstat; exit 1; }; "
         "echo \"@@pid $p\"; echo \"@@cmd $(tr '\\000' ' ' </proc/$p/cmdline)\"; "
         "sh -c 'echo $$; exec jstat -gcutil '$p' " +
         std::to_string(tick_ms) +
         "ms 2>&1' | { read j; while IFS= read -r l; do echo \"$l\" || break; done; "
         "kill $j 2>/dev/null; }";
    return s;
}

JvmProbe::JvmProbe(JvmTarget target, int tick_ms) : target_(std::move(target)), tick_ms_(tick_ms) {}

JvmProbe::~JvmProbe() {
    close();
}

std::string JvmProbe::source() const {
    std::string where = target_.ssh ? target_.ssh->text() : "local";
    return "jvm " + where + " " +
           (target_.pid > 0 ? "pid " + std::to_string(target_.pid) : "'" + target_.match + "'");
}

void JvmProbe::open() {
    const std::string command = "exec sh -c " + shell_quote(script(target_, tick_ms_));
    if (target_.ssh) {
        auto session = std::make_unique<SshSession>(*target_.ssh, target_.ssh_options);
        session->connect();
        profile_ = remote_hardware_profile(*session);
        stream_ = std::make_unique<SshCommandStream>(std::move(session), command);
    } else {
        profile_ = local_hardware_profile();
        stream_ = std::make_unique<LocalCommandStream>(command);
    }
    // Up to jstat's header and first reading, which is the baseline.
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(kStartTimeoutMs);
    std::vector<std::string> matches;
    std::vector<std::string> noise;
    while (last_.empty()) {
        std::vector<std::string> lines;
        const bool open = stream_->read_lines(lines, 500);
        for (const auto& line : lines) {
            if (line == "@@nopid")
                throw ProbeError(
                    source() + (target_.pid > 0 ? ": no such process" : ": no such java process"));
            if (line == "@@nojstat")
                throw ProbeError(source() + ": jstat not found (install a JDK on the host)");
            if (line == "@@many") throw ProbeError(ambiguous_match(matches));
            if (line.starts_with("@@match "))
                matches.push_back(trimmed(line.substr(8)));
            else if (line.starts_with("@@pid "))
                pid_ = std::atol(line.c_str() + 6);
            else if (line.starts_with("@@cmd "))
                profile_.server_notes = trimmed(line.substr(6));
            else if (line.find("YGC") != std::string::npos)
                header_ = words(line);
            else if (!header_.empty())
                emitted_ = last_ = parse_jstat_line(header_, line);
            else
                noise.push_back(line);
        }
        if (!open && header_.empty() && pid_ > 0) throw ProbeError(not_a_jvm(noise));
        if (!open || std::chrono::steady_clock::now() > deadline)
            throw ProbeError(source() + ": jstat gave no reading" +
                             (noise.empty() ? std::string() : ": " + first_words(noise)));
    }
}

std::string JvmProbe::ambiguous_match(const std::vector<std::string>& matches) const {
    std::string text = source() + ": " + std::to_string(matches.size()) +
                       " java processes match; name one by its pid:";
    for (const auto& m : matches)
        text += "\n  " + shortened(m);
    return text;
}

// jstat answers a pid it cannot read with a Java stack trace: one line says it all.
std::string JvmProbe::not_a_jvm(const std::vector<std::string>& jstat_output) const {
    std::string text = source() + ": pid " + std::to_string(pid_) + " is not a JVM jstat can read";
    if (!profile_.server_notes.empty())
        text += " (it runs: " + shortened(profile_.server_notes) + ")";
    return jstat_output.empty() ? text : text + "; jstat: " + first_words(jstat_output);
}

void JvmProbe::handle(const std::string& line, ProbeReading& r) {
    // jstat repeats its header, and says so in words when the JVM goes.
    const size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos || !(std::isdigit(line[first]) || line[first] == '-')) return;
    auto now = parse_jstat_line(header_, line);
    if (now.empty()) return;
    r.ready = true;
    const auto full = get(now, "FGC") - get(last_, "FGC");
    if (full > 0) {
        // jstat samples on its own beat: the collection happened somewhere between these two
        // samples, which is all the old generation's figures can say about it.
        std::ostringstream text;
        text << "full GC (" << source() << "): " << full << " in "
             << (get(now, "FGCT") - get(last_, "FGCT")) * 1000 << " ms; old gen "
             << occupancy(last_, "O") << " at the last sample before, " << occupancy(now, "O")
             << " at the first after (samples " << tick_ms_ << " ms apart)";
        r.events.push_back({0, "gc", text.str()});
    }
    last_ = std::move(now);
}

ProbeReading JvmProbe::poll() {
    ProbeReading r;
    if (!stream_) {
        r.ready = r.gap = true;
        return r;
    }
    // jstat keeps its own beat: take every line that has come since the last tick.
    std::vector<std::string> lines;
    const bool open = drain_lines(*stream_, lines);
    for (const auto& line : lines)
        handle(line, r);
    if (r.ready) {
        r.values = jvm_values(emitted_, last_);
        emitted_ = last_;
    }
    if (!open) {
        r.ready = r.gap = true;
        r.events.push_back({0, "error", source() + ": jstat ended (the JVM exited?)"});
        stream_.reset();
    }
    return r;
}

void JvmProbe::close() {
    stream_.reset();
}

}  // namespace perflab
