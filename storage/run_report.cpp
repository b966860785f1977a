// SPDX-License-Identifier: MIT
#include "run_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <set>
#include <sstream>

#include "agent_figures.h"
#include "agent_ticks.h"
#include "hot_threads.h"
#include "model/figures.h"
#include "model/format.h"
#include "model/node_report.h"
#include "model/node_ticks.h"
#include "model/phase_load_report.h"
#include "model/summary_report.h"
#include "prometheus_figures.h"
#include "server_figures.h"

namespace perflab {

namespace {

std::string base64(std::string_view bytes) {
    static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    uint32_t acc = 0;
    int bits = 0;
    for (unsigned char c : bytes) {
        acc = (acc << 8) | c;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out.push_back(digits[(acc >> bits) & 63]);
        }
    }
    if (bits > 0) out.push_back(digits[(acc << (6 - bits)) & 63]);
    while (out.size() % 4)
        out.push_back('=');
    return out;
}

std::string window_text(const Window& w) {
    if (w.whole()) return "";
    const std::string from = format_fixed(double(std::max<int64_t>(w.from_ms, 0)) / 1000, 1);
    const std::string to = w.to_ms == std::numeric_limits<int64_t>::max()
                               ? "end"
                               : format_fixed(double(w.to_ms) / 1000, 1) + " s";
    return from + " s to " + to;
}

std::string size_text(uint64_t bytes) {
    return format_bytes(bytes);
}

// A markdown or HTML table of a phase's ops.
struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

// "3 (body_contains 3)": requests that failed a check, then the failures per check.
std::string checks_text(const OpSample& op) {
    if (op.check_failures == 0) return "0";
    std::string per;
    for (const auto& [check, n] : op.checks_failed)
        per += (per.empty() ? "" : ", ") + check + " " + std::to_string(n);
    return std::to_string(op.check_failures) + " (" + per + ")";
}

// Per-op rates over the span the phase's own rate is over (vegeta's attack for HTTP). In the
// open model, the service time's p50 and p99 follow the latencies (which count from the
// intended send).
Table ops_table(const PhaseTotals& p, const Figures& f) {
    Table t{{"op", "count", "rate/s", "errors", "mean", "p50", "p90", "p99", "p99.9", "max"}, {}};
    const bool service = !f.service.empty();
    if (service) t.header.insert(t.header.end(), {"service p50", "service p99"});
    const bool checks = p.totals.total_check_failures() > 0;
    if (checks) t.header.push_back("checks failed");
    for (const auto& [name, op] : p.totals.ops) {
        if (op.count == 0 && op.errors == 0) continue;  // an op the run never sent
        const auto& h = op.latency;
        const double rate = f.attack_s > 0 ? double(op.count) / f.attack_s : 0.0;
        t.rows.push_back({name, std::to_string(op.count), format_fixed(rate, 1),
                          std::to_string(op.errors), format_latency_us(int64_t(h.mean())),
                          format_latency_us(h.percentile(50)), format_latency_us(h.percentile(90)),
                          format_latency_us(h.percentile(99)),
                          format_latency_us(h.percentile(99.9)), format_latency_us(h.max())});
        if (service)
            t.rows.back().insert(t.rows.back().end(),
                                 {format_latency_us(op.service.percentile(50)),
                                  format_latency_us(op.service.percentile(99))});
        if (checks) t.rows.back().push_back(checks_text(op));
    }
    return t;
}

// What the servers did in each phase and over the run (server_figures.h); no rows when no
// probe sampled a server or host.
Table server_table(const RunReport& r) {
    Table t{{"span", "full GCs", "GC time", "host CPU mean", "host CPU max", "memcached evictions",
             "memcached memory max", "redis evictions", "redis hit rate", "redis memory max"},
            {}};
    const auto row = [&](const std::string& span, int64_t from, int64_t to) {
        const auto figures = server_figures(r.probes, from, to);
        if (std::all_of(figures.begin(), figures.end(),
                        [](const auto& f) { return std::isnan(f.second); }))
            return;
        const auto cell = [](double v, const std::string& text) {
            return std::isnan(v) ? std::string("-") : text;
        };
        const double gcs = figures[0].second, gc_ms = figures[1].second;
        const double cpu_mean = figures[2].second, cpu_max = figures[3].second;
        const double evictions = figures[4].second, bytes = figures[5].second;
        const double redis_evictions = figures[6].second, redis_hits = figures[7].second,
                     redis_bytes = figures[8].second;
        t.rows.push_back(
            {span, cell(gcs, format_fixed(gcs, 0)),
             cell(gc_ms, format_latency_us(int64_t(gc_ms * 1000))),
             cell(cpu_mean, format_fixed(cpu_mean, 1) + "%"),
             cell(cpu_max, format_fixed(cpu_max, 1) + "%"),
             cell(evictions, format_fixed(evictions, 0)),
             cell(bytes, std::isnan(bytes) ? "" : format_bytes(uint64_t(bytes))),
             cell(redis_evictions, format_fixed(redis_evictions, 0)),
             cell(redis_hits, format_fixed(redis_hits, 1) + "%"),
             cell(redis_bytes,
                  std::isnan(redis_bytes) ? "" : format_bytes(uint64_t(redis_bytes)))});
    };
    if (r.summary.phases.size() > 1)
        for (size_t i = 0; i < r.summary.phases.size(); ++i)
            if (const auto span = phase_span(r.summary, i))
                row("phase " + std::to_string(r.summary.phases[i].phase + 1), span->first,
                    span->second);
    row("run", -1, std::numeric_limits<int64_t>::max());
    return t;
}

// Each prometheus probe's series over each phase and the run: no rows without such a probe.
Table prometheus_table(const RunReport& r) {
    Table t{{"span", "source", "series", "mean", "max"}, {}};
    const auto rows = [&](const std::string& span, int64_t from, int64_t to) {
        for (const auto& f : prometheus_figures(r.probes, from, to))
            t.rows.push_back({span, f.source, f.key.substr(f.key.starts_with("prom.") ? 5 : 0),
                              format_fixed(f.mean, 3), format_fixed(f.max, 3)});
    };
    if (r.summary.phases.size() > 1)
        for (size_t i = 0; i < r.summary.phases.size(); ++i)
            if (const auto span = phase_span(r.summary, i))
                rows("phase " + std::to_string(r.summary.phases[i].phase + 1), span->first,
                     span->second);
    rows("run", -1, std::numeric_limits<int64_t>::max());
    return t;
}

// Each process probe's hottest threads over each phase and the run: a thread's CPU is over the
// samples that counted it among the top N, told as "n/m" of the process's samples.
Table hot_threads_table(const RunReport& r) {
    Table t{{"span", "process", "thread", "mean CPU %", "max CPU %", "samples"}, {}};
    const auto rows = [&](const std::string& span, int64_t from, int64_t to) {
        for (const auto& h : hot_threads(r.probes, from, to))
            t.rows.push_back({span, h.source, h.thread, format_fixed(h.mean_cpu_pct, 1),
                              format_fixed(h.max_cpu_pct, 1),
                              std::to_string(h.samples) + "/" + std::to_string(h.process_samples)});
    };
    if (r.summary.phases.size() > 1)
        for (size_t i = 0; i < r.summary.phases.size(); ++i)
            if (const auto span = phase_span(r.summary, i))
                rows("phase " + std::to_string(r.summary.phases[i].phase + 1), span->first,
                     span->second);
    rows("run", -1, std::numeric_limits<int64_t>::max());
    return t;
}

// A Redis Cluster run's nodes over the run (node_report.h).
Table nodes_table(const RunSummary& s) {
    NodeTable n = node_table(s.overall.totals.nodes);
    return {std::move(n.header), std::move(n.rows)};
}

constexpr const char* kNodesNote =
    "What each node answered, as its own INFO commandstats and keyspace counters count it: an "
    "op redirected counts at the node that answered it; MOVED and ASK at the node that replied "
    "them.";

// Each agent's share of a run that agents sent: no rows otherwise. Its rate is over the run's
// attack time, so the agents' rates sum to the run's.
Table agents_table(const RunSummary& s) {
    Table t{{"agent", "state", "ops", "rate/s", "errors", "late", "p99", "CPU max", "clock offset",
             "KiB a tick"},
            {}};
    const double attack_s = figures(s.kind, s.overall).attack_s;
    for (const auto& a : s.agents) {
        const IntervalSample& x = a.totals;
        const double rate = attack_s > 0 ? double(x.total_ops()) / attack_s : 0.0;
        const bool remote = a.ticks > 0 || a.clock_uncertainty_ns > 0;
        t.rows.push_back(
            {a.host, a.lost ? "lost" : "whole", std::to_string(x.total_ops()),
             format_fixed(rate, 1), std::to_string(x.total_errors()), std::to_string(x.late),
             format_latency_us(x.latency().percentile(99)), format_fixed(a.cpu_max, 0) + "%",
             remote ? format_fixed(double(a.clock_offset_ns) / 1e6, 3) + " ± " +
                          format_fixed(double(a.clock_uncertainty_ns) / 1e6, 3) + " ms"
                    : "-",
             a.ticks ? format_fixed(double(a.tick_bytes) / double(a.ticks) / 1024, 1) : "-"});
    }
    return t;
}

// Another tool's transactions per label (JMeter's Transaction Controller): no rows otherwise.
Table transactions_table(const std::map<std::string, OpSample>& transactions) {
    Table t{{"transaction", "count", "errors", "mean", "p50", "p90", "p99", "max"}, {}};
    for (const auto& [label, x] : transactions) {
        const Histogram& h = x.latency;
        t.rows.push_back({label, std::to_string(x.count), std::to_string(x.errors),
                          format_latency_us(int64_t(h.mean())), format_latency_us(h.percentile(50)),
                          format_latency_us(h.percentile(90)), format_latency_us(h.percentile(99)),
                          format_latency_us(h.max())});
    }
    return t;
}

Table slo_table(const SloVerdict& v) {
    Table t{{"check", "scope", "measured", "verdict"}, {}};
    for (const auto& c : v.checks)
        t.rows.push_back({c.name, c.scope, c.measured_text(), c.passed ? "pass" : "FAIL"});
    return t;
}

Table search_table(const SearchResult& r) {
    Table t{search_columns(), {}};
    for (const auto& s : r.steps)
        t.rows.push_back(search_row(s));
    return t;
}

std::string markdown_table(const Table& t) {
    std::string out = "|";
    for (const auto& h : t.header)
        out += " " + h + " |";
    out += "\n|";
    for (size_t i = 0; i < t.header.size(); ++i)
        out += i == 0 ? "---|" : "---:|";
    out += "\n";
    for (const auto& row : t.rows) {
        out += "|";
        for (const auto& cell : row)
            out += " " + cell + " |";
        out += "\n";
    }
    return out;
}

std::string html_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out.push_back(c);
        }
    }
    return out;
}

std::string html_table(const Table& t) {
    std::string out = "<table>\n<tr>";
    for (const auto& h : t.header)
        out += "<th>" + html_escape(h) + "</th>";
    out += "</tr>\n";
    for (const auto& row : t.rows) {
        out += "<tr>";
        for (const auto& cell : row)
            out += "<td>" + html_escape(cell) + "</td>";
        out += "</tr>\n";
    }
    return out + "</table>\n";
}

std::string phase_title(const Figures& f, int phase) {
    return (phase < 0 ? std::string("Overall") : "Phase " + std::to_string(phase + 1)) + " (" +
           format_fixed(f.duration_s, 2) + " s)";
}

// ": cache-aside, 10000000000 keys ..." after a phase's title, when the run's phases have
// workloads of their own (summary_text's phase lines say the same).
std::string phase_workload(const RunSummary& s, int phase) {
    if (phase < 0 || size_t(phase) >= s.phase_loads.size()) return {};
    return ": " + cache_load_text(s.phase_loads[size_t(phase)]);
}

// The key figures, as `run` prints them for the run's kind.
std::string figures_line(RunKind kind, const Figures& f) {
    std::string s = (kind == RunKind::http ? "requests " : "ops ") + std::to_string(f.requests) +
                    ", rate " + format_fixed(f.rate, 2) + "/s, throughput " +
                    format_fixed(f.throughput, 2) + "/s, success " +
                    format_fixed(f.success * 100, 2) + "%, error rate " +
                    format_fixed(f.error_rate * 100, 2) + "%";
    if (kind == RunKind::http)
        s +=
            ", attack " + format_go_duration(f.attack_s) + ", wait " + format_go_duration(f.wait_s);
    return s;
}

// `cluster`: a Redis Cluster run, whose redirections are told even when there were none.
std::string totals_line(RunKind kind, const PhaseTotals& p, bool cluster) {
    const auto& t = p.totals;
    std::string s;
    if (kind == RunKind::cache && !hits_known(t))
        s += "hit rate - (hits and misses unknown), ";
    else if (kind == RunKind::cache && t.hits + t.misses > 0)
        s += "hit rate " + format_fixed(t.hit_rate() * 100, 2) + "%, ";
    s += "bytes in " + bytes_text(t.bytes_in, t.bytes_in_known) + ", out " +
         bytes_text(t.bytes_out, t.bytes_out_known);
    for (const auto& [code, n] : t.status_codes)
        s += ", status " + std::to_string(code) + ": " + std::to_string(n);
    for (const auto& [kind, n] : t.errors)
        s += ", error " + kind + ": " + std::to_string(n);
    if (cluster || t.moved + t.asked)
        s += ", redirections MOVED " + std::to_string(t.moved) + ", ASK " + std::to_string(t.asked);
    return s;
}

// The header facts as (label, value) pairs, shared by every format.
std::vector<std::pair<std::string, std::string>> facts(const RunReport& r) {
    std::vector<std::pair<std::string, std::string>> f = {
        {"Run", std::to_string(r.info.id)},
        {"Kind", r.info.kind},
        {"Status", r.info.status},
        {"Started", format_wall(r.info.started_at_ms)},
        {"Ended", r.info.ended_at_ms ? format_wall(r.info.ended_at_ms) : "-"},
    };
    if (!r.window.whole()) f.push_back({"Window", window_text(r.window)});
    if (r.info.summary_only)
        f.push_back({"Summary only",
                     "latencies for the whole run alone: its ticks hold counts, "
                     "so no window of it can be analysed"});
    if (const auto seed = r.spec.find("seed"); seed != r.spec.end() && seed->is_number_unsigned())
        f.push_back({"Seed", std::to_string(seed->get<uint64_t>())});
    if (!r.info.tags.empty()) {
        std::string tags;
        for (const auto& t : r.info.tags)
            tags += (tags.empty() ? "" : ", ") + t;
        f.push_back({"Tags", tags});
    }
    if (!r.info.notes.empty()) f.push_back({"Notes", r.info.notes});
    if (!r.info.error.empty()) f.push_back({"Error", r.info.error});
    return f;
}

std::vector<std::pair<std::string, std::string>> profile_facts(const HardwareProfile& p) {
    std::vector<std::pair<std::string, std::string>> f = {
        {"Host", p.hostname},
        {"CPU", p.cpu_model + ", " + std::to_string(p.sockets) + " socket(s), " +
                    std::to_string(p.cores) + " cores, " + std::to_string(p.threads) +
                    " threads, " + format_fixed(p.mhz, 0) + " MHz"},
        {"Memory", size_text(p.memory_total_bytes) + ", swap " + size_text(p.swap_total_bytes)},
        {"OS", p.os_name + " " + p.os_version + ", " + p.kernel},
    };
    std::string caches;
    for (const auto& [level, size] : p.caches)
        caches += (caches.empty() ? "" : ", ") + level + " " + size;
    if (!caches.empty()) f.push_back({"Caches", caches});
    std::string disks;
    for (const auto& d : p.disks)
        disks += (disks.empty() ? "" : ", ") + d.device + " " + size_text(d.size_bytes) +
                 (d.mount.empty() ? "" : " on " + d.mount);
    if (!disks.empty()) f.push_back({"Disks", disks});
    if (!p.perflab_version.empty()) f.push_back({"PerfLab", p.perflab_version});
    if (p.open_files_limit) f.push_back({"Open files", std::to_string(p.open_files_limit)});
    std::string net;
    for (const auto& [k, v] : p.net_settings)
        net += (net.empty() ? "" : ", ") + k + " = " + v;
    if (!net.empty()) f.push_back({"Network", net});
    if (!p.server_notes.empty()) f.push_back({"Server notes", p.server_notes});
    return f;
}

std::vector<const PhaseTotals*> all_totals(const RunSummary& s) {
    std::vector<const PhaseTotals*> out;
    for (const auto& p : s.phases)
        out.push_back(&p);
    out.push_back(&s.overall);
    return out;
}

}  // namespace

std::string format_wall(int64_t ms) {
    const std::time_t t = std::time_t(ms / 1000);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return std::string(buf) + " UTC";
}

std::string profile_text(const HardwareProfile& p) {
    std::string out;
    for (const auto& [k, v] : profile_facts(p))
        out += "  " + k + ": " + v + "\n";
    return out;
}

RunReport load_report(RunStore& store, int64_t id, const Window& window) {
    RunReport r;
    r.info = store.info(id);
    r.spec = store.spec(id);
    r.summary = store.summary(id, window);
    r.window = window;
    r.hosts = store.hosts(id);
    r.events = store.events(id);
    r.probes = store.probe_samples(id);
    r.transactions = read_transaction_totals(store.connection(), id, window.from_ms, window.to_ms);
    if (!r.summary.agents.empty())
        for (const auto& s : store.samples(id, window))
            r.agent_ticks.push_back({{"t_ms", s.t_ms},
                                     {"interval_ms", s.interval_ms},
                                     {"phase", s.phase},
                                     {"drain", s.drain},
                                     {"agents", agent_ticks_json(s.agents)}});
    return r;
}

std::string verdict_text(const RunInfo& r) {
    if (r.search)
        return r.search->max_rate ? "max:" + format_fixed(*r.search->max_rate, 0) + "/s" : "FAIL";
    return r.slo ? (r.slo->passed ? "PASS" : "FAIL") : "-";
}

std::string report_text(const RunReport& r) {
    std::string out = "Run " + std::to_string(r.info.id) + ": " + r.info.name + "\n";
    for (const auto& [k, v] : facts(r))
        if (k != "Run") out += "  " + k + ": " + v + "\n";
    for (const auto& h : r.hosts)
        out += "Machine (" + h.role + ")\n" + profile_text(h.profile);
    out += summary_text(r.summary);
    if (const Table tx = transactions_table(r.transactions); !tx.rows.empty())
        out +=
            "Transactions (not requests: their requests are counted above)\n" + markdown_table(tx);
    if (const Table agents = agents_table(r.summary); !agents.rows.empty())
        out += "Agents\n" + markdown_table(agents);
    if (const Table servers = server_table(r); !servers.rows.empty())
        out += "Servers\n" + markdown_table(servers);
    if (const Table prom = prometheus_table(r); !prom.rows.empty())
        out += "Prometheus\n" + markdown_table(prom);
    if (const Table hot = hot_threads_table(r); !hot.rows.empty())
        out += "Hot threads\n" + markdown_table(hot);
    if (r.summary.slo) out += slo_text(*r.summary.slo);
    if (r.summary.search) out += search_text(*r.summary.search);
    if (!r.events.empty()) out += "Events\n";
    for (const auto& e : r.events)
        out += "  " + format_clock(e.t_ms) + " " + e.kind + ": " + e.text + "\n";
    return out;
}

nlohmann::json report_json(const RunReport& r) {
    nlohmann::json hosts = nlohmann::json::array();
    for (const auto& h : r.hosts)
        hosts.push_back({{"role", h.role}, {"profile", to_json(h.profile)}});
    nlohmann::json events = nlohmann::json::array();
    for (const auto& e : r.events)
        events.push_back({{"t_ms", e.t_ms}, {"kind", e.kind}, {"text", e.text}});
    nlohmann::json run = {{"id", r.info.id},
                          {"name", r.info.name},
                          {"kind", r.info.kind},
                          {"status", r.info.status},
                          {"started_at", format_wall(r.info.started_at_ms)},
                          {"started_at_ms", r.info.started_at_ms},
                          {"ended_at_ms", r.info.ended_at_ms},
                          {"tags", r.info.tags},
                          {"notes", r.info.notes},
                          {"error", r.info.error},
                          {"summary_only", r.info.summary_only}};
    nlohmann::json window = nullptr;
    if (!r.window.whole()) {
        window = {{"from_ms", std::max<int64_t>(r.window.from_ms, 0)}};
        if (r.window.to_ms != std::numeric_limits<int64_t>::max()) window["to_ms"] = r.window.to_ms;
    }
    nlohmann::json out = {{"run", run},     {"window", window},
                          {"spec", r.spec}, {"summary", summary_json(r.summary)},
                          {"hosts", hosts}, {"events", events}};
    if (!r.summary.agents.empty()) {
        out["agents"] = agent_totals_json(r.summary.agents);
        out["agent_ticks"] = r.agent_ticks;
    }
    out["transactions"] = transactions_json(r.transactions);
    out["servers"] = servers_json(r.summary, r.probes);
    out["prometheus"] = prometheus_json(r.summary, r.probes);
    out["hot_threads"] = hot_threads_json(r.summary, r.probes);
    return out;
}

nlohmann::json transactions_json(const std::map<std::string, OpSample>& transactions) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [label, t] : transactions)
        out[label] = {
            {"count", t.count}, {"errors", t.errors}, {"latency_us", latency_json(t.latency)}};
    return out;
}

std::string report_markdown(const RunReport& r, const std::vector<ReportChart>& images) {
    std::string out = "# Run " + std::to_string(r.info.id) + ": " + r.info.name + "\n\n";
    for (const auto& [k, v] : facts(r))
        out += "- **" + k + "**: " + v + "\n";
    for (const auto& h : r.hosts) {
        out += "\n## Machine (" + h.role + ")\n\n";
        for (const auto& [k, v] : profile_facts(h.profile))
            out += "- **" + k + "**: " + v + "\n";
    }
    const RunKind kind = r.summary.kind;
    for (const auto* p : all_totals(r.summary)) {
        const Figures f = figures(kind, *p);
        out += "\n## " + (phase_title(f, p->phase) + phase_workload(r.summary, p->phase)) + "\n\n" +
               figures_line(kind, f) + "\n\n" + markdown_table(ops_table(*p, f));
        out += "\n" + totals_line(kind, *p, r.summary.redis_cluster) + "\n";
    }
    if (const Table tx = transactions_table(r.transactions); !tx.rows.empty())
        out += "\n## Transactions\n\nNot requests: their requests are counted above.\n\n" +
               markdown_table(tx);
    if (const Table nodes = nodes_table(r.summary); !nodes.rows.empty())
        out += "\n## Cluster nodes\n\n" + std::string(kNodesNote) + "\n\n" + markdown_table(nodes);
    if (const Table agents = agents_table(r.summary); !agents.rows.empty())
        out += "\n## Agents\n\n" + markdown_table(agents);
    if (const Table servers = server_table(r); !servers.rows.empty())
        out += "\n## Servers\n\n" + markdown_table(servers);
    if (const Table prom = prometheus_table(r); !prom.rows.empty())
        out += "\n## Prometheus\n\n" + markdown_table(prom);
    if (const Table hot = hot_threads_table(r); !hot.rows.empty())
        out += "\n## Hot threads\n\n" + markdown_table(hot);
    if (const auto& slo = r.summary.slo)
        out += std::string("\n## SLO: ") + (slo->passed ? "PASS" : "FAIL") + "\n\n" +
               markdown_table(slo_table(*slo));
    if (const auto& search = r.summary.search)
        out += "\n## Max-rate search\n\n" + search_headline(*search) + "\n\n" +
               markdown_table(search_table(*search));
    if (!images.empty()) out += "\n## Charts\n";
    for (const auto& image : images)
        out += "\n![" + image.title + "](" + image.path + ")\n";
    // The spec in full, as stored (credentials masked): what reproduces the run.
    if (!r.spec.is_null()) out += "\n## Spec\n\n```json\n" + r.spec.dump(2) + "\n```\n";
    if (!r.events.empty()) out += "\n## Events\n\n";
    for (const auto& e : r.events)
        out += "- " + format_clock(e.t_ms) + " " + e.kind + ": " + e.text + "\n";
    return out;
}

ReportHtmlParts report_html_parts(const RunReport& r) {
    ReportHtmlParts parts;
    parts.style =
        "body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid "
        "#ccc;padding:2px 8px;text-align:right}";
    parts.title =
        "<h1>" + html_escape("Run " + std::to_string(r.info.id) + ": " + r.info.name) + "</h1>\n";
    const RunKind kind = r.summary.kind;
    const Figures overall = figures(kind, r.summary.overall);
    parts.summary = "<h2>Summary</h2>\n<p><b>Status</b>: " + html_escape(r.info.status);
    if (const auto& slo = r.summary.slo)
        parts.summary += ", <b>SLO</b>: " + std::string(slo->passed ? "PASS" : "FAIL");
    if (!window_text(r.window).empty())
        parts.summary += ", <b>window</b>: " + html_escape(window_text(r.window));
    parts.summary += "</p>\n<p>" + html_escape(figures_line(kind, overall)) + "</p>\n";
    if (!overall.latency.empty())
        parts.summary +=
            "<p>" +
            html_escape("latency mean " + format_latency_us(int64_t(overall.latency.mean())) +
                        ", p50 " + format_latency_us(overall.latency.percentile(50)) + ", p99 " +
                        format_latency_us(overall.latency.percentile(99)) + ", max " +
                        format_latency_us(overall.latency.max())) +
            "</p>\n";
    parts.summary += "<p>" +
                     html_escape(totals_line(kind, r.summary.overall, r.summary.redis_cluster)) +
                     "</p>\n";
    if (const auto& slo = r.summary.slo) parts.summary += html_table(slo_table(*slo));
    if (const auto& search = r.summary.search)
        parts.summary +=
            "<p><b>Max-rate search</b>: " + html_escape(search_headline(*search)) + "</p>\n";
    if (!r.info.error.empty())
        parts.summary += "<p><b>Error</b>: " + html_escape(r.info.error) + "</p>\n";
    parts.facts = "<ul>\n";
    for (const auto& [k, v] : facts(r))
        parts.facts += "<li><b>" + html_escape(k) + "</b>: " + html_escape(v) + "</li>\n";
    parts.facts += "</ul>\n";
    for (const auto& h : r.hosts) {
        std::string machine = "<h2>Machine (" + html_escape(h.role) + ")</h2>\n<ul>\n";
        for (const auto& [k, v] : profile_facts(h.profile))
            machine += "<li><b>" + html_escape(k) + "</b>: " + html_escape(v) + "</li>\n";
        parts.machines.push_back(machine + "</ul>\n");
    }
    for (const auto* p : all_totals(r.summary)) {
        const Figures f = figures(kind, *p);
        parts.phases.push_back(
            "<h2>" + html_escape((phase_title(f, p->phase) + phase_workload(r.summary, p->phase))) +
            "</h2>\n<p>" + html_escape(figures_line(kind, f)) + "</p>\n" +
            html_table(ops_table(*p, f)) + "<p>" +
            html_escape(totals_line(kind, *p, r.summary.redis_cluster)) + "</p>\n");
    }
    if (const Table tx = transactions_table(r.transactions); !tx.rows.empty())
        parts.transactions =
            "<h2>Transactions</h2>\n<p>Not requests: their requests are counted above.</p>\n" +
            html_table(tx);
    if (const Table nodes = nodes_table(r.summary); !nodes.rows.empty())
        parts.nodes =
            "<h2>Cluster nodes</h2>\n<p>" + html_escape(kNodesNote) + "</p>\n" + html_table(nodes);
    if (const Table agents = agents_table(r.summary); !agents.rows.empty())
        parts.agents = "<h2>Agents</h2>\n" + html_table(agents);
    if (const Table servers = server_table(r); !servers.rows.empty())
        parts.servers = "<h2>Servers</h2>\n" + html_table(servers);
    if (const Table prom = prometheus_table(r); !prom.rows.empty())
        parts.servers += "<h2>Prometheus</h2>\n" + html_table(prom);
    if (const Table hot = hot_threads_table(r); !hot.rows.empty())
        parts.servers += "<h2>Hot threads</h2>\n" + html_table(hot);
    if (const auto& slo = r.summary.slo)
        parts.slo = std::string("<h2>SLO: ") + (slo->passed ? "PASS" : "FAIL") + "</h2>\n" +
                    html_table(slo_table(*slo));
    if (const auto& search = r.summary.search)
        parts.search = "<h2>Max-rate search</h2>\n<p>" + html_escape(search_headline(*search)) +
                       "</p>\n" + html_table(search_table(*search));
    if (!r.spec.is_null())
        parts.spec = "<h2>Spec</h2>\n<pre>" + html_escape(r.spec.dump(2)) + "</pre>\n";
    if (!r.events.empty()) {
        parts.events = "<h2>Events</h2>\n<ul>\n";
        for (const auto& e : r.events)
            parts.events += "<li>" +
                            html_escape(format_clock(e.t_ms) + " " + e.kind + ": " + e.text) +
                            "</li>\n";
        parts.events += "</ul>\n";
    }
    return parts;
}

std::string report_html(const RunReport& r, const std::vector<ReportChart>& images) {
    const ReportHtmlParts parts = report_html_parts(r);
    const std::string title = "Run " + std::to_string(r.info.id) + ": " + r.info.name;
    std::string out = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" +
                      html_escape(title) + "</title>\n<style>" + parts.style +
                      "</style></head><body>\n" + parts.title + parts.facts;
    for (const auto& machine : parts.machines)
        out += machine;
    for (const auto& phase : parts.phases)
        out += phase;
    out +=
        parts.transactions + parts.nodes + parts.agents + parts.servers + parts.slo + parts.search;
    if (!images.empty()) out += "<h2>Charts</h2>\n";
    for (const auto& image : images)
        out += "<p><img src=\"" + html_escape(image.path) + "\" alt=\"" + html_escape(image.title) +
               "\"></p>\n";
    return out + parts.spec + parts.events + "</body></html>\n";
}

namespace {

// RFC 4180: a field holding the delimiter, a quote or a line end is quoted, its quotes doubled.
std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
    std::string out = "\"";
    for (const char c : text)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// Hits and misses of the run's ticks are unknown where the run's are (hits_known).
bool run_hits_known(const std::vector<IntervalSample>& samples) {
    IntervalSample all;
    for (const auto& s : samples) {
        all.hits += s.hits;
        all.misses += s.misses;
        for (const auto& [name, op] : s.ops) {
            all.ops[name].count += op.count;
            all.ops[name].errors += op.errors;
        }
    }
    return hits_known(all);
}

// A latency is written only where the tick recorded one: a summary-only run's ticks have counts
// without latencies, and a tick without requests has none. Empty, never 0, when unknown.
std::string csv_latency(const Histogram& h, double percentile) {
    return h.empty() ? std::string() : std::to_string(h.percentile(percentile));
}

}  // namespace

std::string ticks_csv(const std::vector<IntervalSample>& samples, RunKind kind,
                      bool redis_cluster) {
    const bool cache = kind == RunKind::cache;
    const bool hits = cache && run_hits_known(samples);
    const bool redirections =
        redis_cluster || std::any_of(samples.begin(), samples.end(),
                                     [](const IntervalSample& s) { return s.moved + s.asked > 0; });
    std::set<std::string> op_names;
    for (const auto& s : samples)
        for (const auto& [name, op] : s.ops)
            op_names.insert(name);
    std::string out = "t_ms,interval_ms,phase,planned_rate,connections,ops,ops_per_s,errors,";
    if (cache) out += "hits,misses,hit_rate,";
    out += "bytes_in,bytes_out,sent,late,";
    if (redirections) out += "moved,ask,";
    out += "p50_us,p99_us,max_us";
    const bool service = std::any_of(samples.begin(), samples.end(),
                                     [](const IntervalSample& s) { return !s.service().empty(); });
    if (service) out += ",service_p50_us,service_p99_us";
    for (const auto& name : op_names)
        for (const char* figure : {"_count", "_errors", "_p50_us", "_p99_us"})
            out += "," + csv_field(name + figure);
    std::set<std::string> labels;
    for (const auto& s : samples)
        for (const auto& [label, t] : s.transactions)
            labels.insert(label);
    for (const auto& label : labels)
        for (const char* figure : {"_count", "_errors", "_p50_us", "_p99_us"})
            out += "," + csv_field("transaction " + label + figure);
    // A run that agents sent: each agent's part, in the order of its first tick. CPU is empty
    // where unknown; behind and lost are 0 or 1.
    std::vector<std::string> hosts;
    for (const auto& s : samples)
        for (const auto& a : s.agents)
            if (std::find(hosts.begin(), hosts.end(), a.host) == hosts.end())
                hosts.push_back(a.host);
    for (const auto& host : hosts)
        for (const char* figure : {" ops", " ops_per_s", " late", " cpu_pct", " behind", " lost"})
            out += "," + csv_field("agent " + host + figure);
    out += "\n";
    for (const auto& s : samples) {
        const Histogram all = s.latency();
        const double secs = s.seconds() > 0 ? s.seconds() : 1.0;
        std::ostringstream row;
        row << s.t_ms << ',' << s.interval_ms << ',' << s.phase << ','
            << format_fixed(s.planned_rate, 1) << ',' << s.connections << ',' << s.total_ops()
            << ',' << format_fixed(double(s.total_ops()) / secs, 1) << ',' << s.total_errors()
            << ',';
        if (hits)
            row << s.hits << ',' << s.misses << ',' << format_fixed(s.hit_rate(), 4) << ',';
        else if (cache)
            row << ",,,";
        // Empty where the run's source did not count them, as the unknown hits are.
        row << (s.bytes_in_known ? std::to_string(s.bytes_in) : "") << ','
            << (s.bytes_out_known ? std::to_string(s.bytes_out) : "") << ',' << s.sent << ','
            << s.late << ',';
        if (redirections) row << s.moved << ',' << s.asked << ',';
        row << csv_latency(all, 50) << ',' << csv_latency(all, 99) << ','
            << (all.empty() ? std::string() : std::to_string(all.max()));
        if (service) {
            const Histogram served = s.service();
            row << ',' << csv_latency(served, 50) << ',' << csv_latency(served, 99);
        }
        for (const auto& name : op_names) {
            const auto it = s.ops.find(name);
            if (it == s.ops.end()) {
                row << ",0,0,,";
                continue;
            }
            const auto& op = it->second;
            row << ',' << op.count << ',' << op.errors << ',' << csv_latency(op.latency, 50) << ','
                << csv_latency(op.latency, 99);
        }
        for (const auto& label : labels) {
            const auto it = s.transactions.find(label);
            if (it == s.transactions.end()) {
                row << ",0,0,,";
                continue;
            }
            const auto& t = it->second;
            row << ',' << t.count << ',' << t.errors << ',' << csv_latency(t.latency, 50) << ','
                << csv_latency(t.latency, 99);
        }
        for (const auto& host : hosts) {
            const auto a = std::find_if(s.agents.begin(), s.agents.end(),
                                        [&](const AgentTick& t) { return t.host == host; });
            if (a == s.agents.end()) {
                row << ",,,,,,";
                continue;
            }
            row << ',' << a->ops << ',' << format_fixed(double(a->ops) / secs, 1) << ',' << a->late
                << ',' << (a->cpu_pct < 0 ? std::string() : format_fixed(a->cpu_pct, 1)) << ','
                << int(a->behind) << ',' << int(a->lost);
        }
        out += row.str() + "\n";
    }
    return out;
}

nlohmann::json export_json(RunStore& store, int64_t id) {
    const RunReport report = load_report(store, id);
    nlohmann::json j = report_json(report);
    const bool cache = report.summary.kind == RunKind::cache;
    const bool hits = hits_known(report.summary.overall.totals);
    nlohmann::json ticks = nlohmann::json::array();
    for (const auto& s : store.samples(id)) {
        nlohmann::json ops = nlohmann::json::object();
        for (const auto& [name, op] : s.ops) {
            ops[name] = {{"count", op.count},
                         {"errors", op.errors},
                         {"latency_us", latency_json(op.latency)},
                         {"histogram", base64(op.latency.encode())}};
            if (!op.service.empty()) {
                ops[name]["service_us"] = latency_json(op.service);
                ops[name]["service_histogram"] = base64(op.service.encode());
            }
            if (op.check_failures) {
                ops[name]["check_failures"] = op.check_failures;
                ops[name]["checks_failed"] = op.checks_failed;
            }
        }
        nlohmann::json codes = nlohmann::json::object();
        for (const auto& [code, n] : s.status_codes)
            codes[std::to_string(code)] = n;
        nlohmann::json tick = {{"t_ms", s.t_ms},
                               {"interval_ms", s.interval_ms},
                               {"phase", s.phase},
                               {"planned_rate", s.planned_rate},
                               {"connections", s.connections},
                               {"ops", ops},
                               {"bytes_in", bytes_json(s.bytes_in, s.bytes_in_known)},
                               {"bytes_out", bytes_json(s.bytes_out, s.bytes_out_known)},
                               {"sent", s.sent},
                               {"late", s.late},
                               {"dropped", s.dropped},
                               {"errors", s.errors},
                               {"drain", s.drain}};
        if (cache) {
            tick["hits"] = hits ? nlohmann::json(s.hits) : nlohmann::json();
            tick["misses"] = hits ? nlohmann::json(s.misses) : nlohmann::json();
        } else {
            tick["status_codes"] = codes;
        }
        if (tells_redirections(report.summary))
            tick["redirections"] = {{"moved", s.moved}, {"ask", s.asked}};
        if (!s.nodes.empty()) tick["nodes"] = node_ticks_json(s.nodes);
        if (!s.agents.empty()) tick["agents"] = agent_ticks_json(s.agents);
        if (!s.transactions.empty()) {
            tick["transactions"] = transactions_json(s.transactions);
            for (const auto& [label, t] : s.transactions)
                tick["transactions"][label]["histogram"] = base64(t.latency.encode());
        }
        ticks.push_back(std::move(tick));
    }
    j["ticks"] = ticks;
    nlohmann::json probes = nlohmann::json::array();
    for (const auto& p : report.probes)
        probes.push_back({{"t_ms", p.t_ms},
                          {"source", p.source},
                          {"kind", p.kind},
                          {"values", p.values},
                          {"gap", p.gap}});
    j["probe_samples"] = probes;
    return j;
}

}  // namespace perflab
