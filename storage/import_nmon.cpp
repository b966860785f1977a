// SPDX-License-Identifier: MIT
#include "import_nmon.h"

#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>

#include "import_record.h"
#include "model/format.h"
#include "run_report.h"
#include "run_store.h"
#include "sqlite.h"

namespace perflab {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr int64_t kSlackMs = 1000;

std::vector<std::string> fields_of(const std::string& line) {
    std::vector<std::string> out;
    size_t from = 0;
    for (size_t comma; (comma = line.find(',', from)) != std::string::npos; from = comma + 1)
        out.push_back(line.substr(from, comma - from));
    out.push_back(line.substr(from));
    if (!out.empty() && !out.back().empty() && out.back().back() == '\r') out.back().pop_back();
    return out;
}

// "T0012" → 12; 0 for anything else.
int snapshot_number(const std::string& field) {
    if (field.size() < 2 || field[0] != 'T') return 0;
    const auto n = parse_number(std::string_view(field).substr(1));
    return n && *n >= 1 && *n == double(int(*n)) ? int(*n) : 0;
}

// "14:23:41" and "06-DEC-2026", local time → ms since the epoch; nullopt if malformed.
std::optional<int64_t> wall_ms(const std::string& clock, const std::string& date) {
    static const char* kMonths[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                    "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
    std::tm tm{};
    char month[4] = {};
    if (std::sscanf(clock.c_str(), "%2d:%2d:%2d", &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 3 ||
        std::sscanf(date.c_str(), "%2d-%3c-%4d", &tm.tm_mday, month, &tm.tm_year) != 3)
        return std::nullopt;
    tm.tm_mon = -1;
    for (int m = 0; m < 12; ++m)
        if (std::string(month) == kMonths[m]) tm.tm_mon = m;
    if (tm.tm_mon < 0 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60) return std::nullopt;
    tm.tm_year -= 1900;
    tm.tm_isdst = -1;
    const std::time_t t = std::mktime(&tm);
    if (t == -1) return std::nullopt;
    return int64_t(t) * 1000;
}

// The values of one data line under its section's header, by column name.
class Sections {
  public:
    void header(const std::vector<std::string>& f) { headers_[f[0]] = f; }
    bool known(const std::string& section) const { return headers_.count(section) > 0; }

    // Column `name` of a data line of `section`, or nullopt when the header has none.
    std::optional<double> value(const std::vector<std::string>& data, const std::string& name,
                                int64_t line) const {
        const auto& h = headers_.at(data[0]);
        for (size_t i = 2; i < h.size() && i < data.size(); ++i)
            if (h[i] == name) return number(data[i], data[0] + " " + name, line);
        return std::nullopt;
    }
    // Every column of a data line, by name.
    std::vector<std::pair<std::string, double>> columns(const std::vector<std::string>& data,
                                                        int64_t line) const {
        const auto& h = headers_.at(data[0]);
        std::vector<std::pair<std::string, double>> out;
        for (size_t i = 2; i < h.size() && i < data.size(); ++i)
            if (!h[i].empty() && !data[i].empty())
                out.emplace_back(h[i], number(data[i], data[0] + " " + h[i], line));
        return out;
    }

    static double number(const std::string& text, const std::string& field, int64_t line) {
        const auto v = parse_number(text);
        if (!v) throw ImportError(line, field, "\"" + text + "\" is not a number");
        return *v;
    }

  private:
    std::map<std::string, std::vector<std::string>> headers_;
};

void add(nlohmann::json& values, const std::string& key, double v) {
    values[key] = values.value(key, 0.0) + v;
}

void cpu_all(const Sections& s, const std::vector<std::string>& f, int64_t line,
             nlohmann::json& values) {
    const auto user = s.value(f, "User%", line), sys = s.value(f, "Sys%", line);
    const auto wait = s.value(f, "Wait%", line), idle = s.value(f, "Idle%", line);
    if (!user || !sys || !wait || !idle)
        throw ImportError(line, "CPU_ALL", "the header has no User%, Sys%, Wait% or Idle%");
    values["cpu_user"] = *user;
    values["cpu_system"] = *sys;
    values["cpu_iowait"] = *wait;
    values["cpu_idle"] = *idle;
    if (const auto steal = s.value(f, "Steal%", line)) values["cpu_steal"] = *steal;
    values["cpu_busy"] = 100.0 - *idle - *wait;
}

void memory(const Sections& s, const std::vector<std::string>& f, int64_t line,
            nlohmann::json& values) {
    const auto total = s.value(f, "memtotal", line), free = s.value(f, "memfree", line);
    const auto cached = s.value(f, "cached", line), buffers = s.value(f, "buffers", line);
    if (!total || !free || !cached || !buffers)
        throw ImportError(line, "MEM", "the header has no memtotal, memfree, cached or buffers");
    values["mem_total"] = *total * kMiB;
    values["mem_cached"] = *cached * kMiB;
    values["mem_used"] = (*total - *free - *cached - *buffers) * kMiB;
    const auto swap_total = s.value(f, "swaptotal", line);
    const auto swap_free = s.value(f, "swapfree", line);
    if (swap_total && swap_free) values["swap_used"] = (*swap_total - *swap_free) * kMiB;
}

void network(const Sections& s, const std::vector<std::string>& f, int64_t line,
             nlohmann::json& values) {
    for (const auto& [name, kbps] : s.columns(f, line)) {
        const bool read = name.ends_with("-read-KB/s");
        if (!read && !name.ends_with("-write-KB/s")) continue;
        const std::string iface = name.substr(0, name.find(read ? "-read-KB/s" : "-write-KB/s"));
        const char* way = read ? "rx_Bps" : "tx_Bps";
        values["net." + iface + "." + way] = kbps * 1024;
        if (iface != "lo") add(values, std::string("net_") + way, kbps * 1024);
    }
}

}  // namespace

NmonCapture read_nmon(std::istream& in) {
    NmonCapture c;
    Sections sections;
    std::map<int, NmonCapture::Snapshot> snapshots;
    std::string text;
    int64_t line = 0;
    while (std::getline(in, text)) {
        ++line;
        const auto f = fields_of(text);
        if (line == 1 && (f.size() < 3 || f[0] != "AAA" || f[1] != "progname"))
            throw ImportError(line, "", "not an nmon capture (it begins with AAA,progname,nmon)");
        if (f.size() < 2) continue;
        if (f[0] == "AAA") {
            if (f[1] == "host" && f.size() > 2) c.host = f[2];
            if (f[1] == "interval" && f.size() > 2)
                c.interval_s = int(Sections::number(f[2], "AAA interval", line));
            continue;
        }
        if (f[0] == "ZZZZ") {
            const int n = snapshot_number(f[1]);
            const auto at = f.size() >= 4 ? wall_ms(f[2], f[3]) : std::nullopt;
            if (!n || !at)
                throw ImportError(line, "ZZZZ",
                                  "expected ZZZZ,Tnnnn,HH:MM:SS,DD-MON-YYYY, got \"" + text + "\"");
            snapshots[n].wall_ms = *at;
            continue;
        }
        // TOP's data lines carry the pid first, the snapshot second.
        const bool top = f[0] == "TOP";
        const int n = snapshot_number(top && f.size() > 2 ? f[2] : f[1]);
        if (!n) {
            if (!top) sections.header(f);
            continue;
        }
        nlohmann::json& values = snapshots[n].values;
        const std::string& section = f[0];
        if (top) {
            // TOP,PID,Tnnnn,%CPU,%Usr,%Sys,Size,ResSet,ResText,ResData,ShdLib,MinorFault,
            // MajorFault,Command,...
            if (f.size() < 14)
                throw ImportError(line, "TOP", "expected a command in the 14th field");
            add(values, "top." + f[13] + ".cpu_pct", Sections::number(f[3], "TOP %CPU", line));
        } else if (!sections.known(section)) {
            throw ImportError(line, section, "data before the section's header line");
        } else if (section == "CPU_ALL") {
            cpu_all(sections, f, line, values);
        } else if (section.size() == 6 && section.starts_with("CPU")) {
            const auto idle = sections.value(f, "Idle%", line);
            const auto wait = sections.value(f, "Wait%", line);
            const int cpu = int(Sections::number(section.substr(3), section, line));
            if (idle && wait && cpu >= 1)
                values["cpu" + std::to_string(cpu - 1) + "_busy"] = 100.0 - *idle - *wait;
        } else if (section == "MEM") {
            memory(sections, f, line, values);
        } else if (section == "PROC") {
            if (const auto v = sections.value(f, "Runnable", line)) values["procs_running"] = *v;
            if (const auto v = sections.value(f, "pswitch", line)) values["ctx_switches_ps"] = *v;
        } else if (section == "NET") {
            network(sections, f, line, values);
        } else if (section == "DISKBUSY" || section == "DISKREAD" || section == "DISKWRITE") {
            const char* key = section == "DISKBUSY"   ? "util_pct"
                              : section == "DISKREAD" ? "read_Bps"
                                                      : "write_Bps";
            const double scale = section == "DISKBUSY" ? 1 : 1024;
            for (const auto& [dev, v] : sections.columns(f, line))
                values["disk." + dev + "." + key] = v * scale;
        }
    }
    for (auto& [n, s] : snapshots) {
        if (s.wall_ms == 0)
            throw ImportError(line, "ZZZZ",
                              "snapshot T" + std::to_string(n) + " has no ZZZZ line (a cut file?)");
        if (!s.values.contains("cpu_busy")) continue;  // the last snapshot, cut as nmon ended
        c.snapshots.push_back(std::move(s));
    }
    if (c.snapshots.empty()) throw ImportError(line, "", "no snapshot with CPU_ALL values");
    return c;
}

HostImport import_host_capture(const std::string& db_path, int64_t run, const std::string& file,
                               const std::string& source) {
    std::ifstream in(file);
    if (!in) throw ImportError("file", "cannot read " + file);
    const NmonCapture capture = read_nmon(in);
    HostImport r;
    r.source = source.empty() ? "nmon " + capture.host : source;

    if (!std::filesystem::exists(db_path)) throw ImportError("--db", "no database at " + db_path);
    RunStore store(db_path, Access::write);
    const RunInfo info = store.info(run);
    const int64_t end_ms = info.ended_at_ms > 0 ? info.ended_at_ms : info.started_at_ms;
    for (const auto& s : store.probe_samples(run))
        if (s.source == r.source)
            throw ImportError("--host", "run " + std::to_string(run) +
                                            " already has samples of \"" + r.source +
                                            "\" (name this host otherwise)");
    Connection& db = store.connection();
    Transaction tx(db);
    Statement insert(db,
                     "INSERT INTO probe_samples (run_id, t_ms, source, kind, values_json, gap) "
                     "VALUES (?1, ?2, ?3, 'host', ?4, 0)");
    for (const auto& s : capture.snapshots) {
        // A snapshot covers the interval before its stamp: one stamped at or before the
        // run's start is the time before the run; one up to a second after its end, its end.
        if (s.wall_ms <= info.started_at_ms || s.wall_ms > end_ms + kSlackMs) {
            ++r.outside;
            continue;
        }
        insert.bind(1, run).bind(2, s.wall_ms - info.started_at_ms).bind(3, r.source);
        insert.bind(4, s.values.dump());
        insert.run();
        ++r.added;
    }
    if (r.added == 0)
        throw ImportError("ZZZZ", "the capture (" + format_wall(capture.snapshots.front().wall_ms) +
                                      " to " + format_wall(capture.snapshots.back().wall_ms) +
                                      ") does not overlap run " + std::to_string(run) + " (" +
                                      format_wall(info.started_at_ms) + " to " +
                                      format_wall(end_ms) + ")");
    Statement note(db, "INSERT INTO events (run_id, t_ms, kind, text) VALUES (?1, 0, 'note', ?2)");
    note.bind(1, run).bind(2, "host samples of " + r.source + " imported from " + file + " (" +
                                  std::to_string(r.added) + " nmon snapshots, " +
                                  std::to_string(capture.interval_s) + " s apart)");
    note.run();
    tx.commit();
    return r;
}

}  // namespace perflab
