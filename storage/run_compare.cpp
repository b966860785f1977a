// SPDX-License-Identifier: MIT
#include "run_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>

#include "model/figures.h"
#include "model/format.h"
#include "prometheus_figures.h"
#include "server_figures.h"

namespace perflab {

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// The largest share of a cluster's calls one node answered, in percent: how unevenly the keys
// spread (100 / nodes when even). None for a run without nodes.
double hottest_node_share(const IntervalSample& t) {
    uint64_t all = 0, most = 0;
    for (const auto& [name, n] : t.nodes) {
        all += n.total_calls();
        most = std::max(most, n.total_calls());
    }
    return all ? 100.0 * double(most) / double(all) : kNone;
}

// The figures a reader compares first: the run's figures.h, as `run` reports them. A Redis
// Cluster run's redirections and its hottest node's share are shown, never judged: they follow
// a resharding and the key space, not speed.
std::vector<std::pair<std::string, double>> figures_of(const RunSummary& s) {
    const IntervalSample& t = s.overall.totals;
    const Figures f = figures(s.kind, s.overall);
    const Histogram& h = f.latency;
    const bool redirections = tells_redirections(s);
    return {
        {"duration_s", f.duration_s},
        {"ops", double(f.requests)},
        {"rate", f.rate},
        {"throughput", f.throughput},
        {"success", f.success},
        {"error_rate", f.error_rate},
        {"mean_us", h.mean()},
        {"p50_us", double(h.percentile(50))},
        {"p90_us", double(h.percentile(90))},
        {"p99_us", double(h.percentile(99))},
        {"p999_us", double(h.percentile(99.9))},
        {"max_us", double(h.max())},
        // Open model: from the actual send; what the generator's own queueing hides.
        {"service_p50_us", f.service.empty() ? kNone : double(f.service.percentile(50))},
        {"service_p99_us", f.service.empty() ? kNone : double(f.service.percentile(99))},
        {"errors", double(f.errors)},
        {"hit_rate", f.hit_rate.value_or(kNone)},
        {"bytes_in", t.bytes_in_known ? double(t.bytes_in) : kNone},
        {"bytes_out", t.bytes_out_known ? double(t.bytes_out) : kNone},
        {"redis_moved", redirections ? double(t.moved) : kNone},
        {"redis_ask", redirections ? double(t.asked) : kNone},
        {"redis_hottest_node_pct", hottest_node_share(t)},
    };
}

// The servers' figures over the run, then, when a run has several phases, over each phase
// ("p2.jvm_full_gcs"): a phase from its start to the next one's.
std::vector<std::pair<std::string, double>> server_figures_of(
    const RunSummary& s, const std::vector<ProbeSample>& probes, size_t phases) {
    auto out = server_figures(probes, -1, std::numeric_limits<int64_t>::max());
    for (size_t i = 0; phases > 1 && i < phases; ++i) {
        const auto span = phase_span(s, i);
        for (auto& [name, v] :
             server_figures(probes, span ? span->first : 0, span ? span->second : -1))
            out.emplace_back("p" + std::to_string(i + 1) + "." + name, span ? v : kNone);
    }
    return out;
}

// The servers' configuration that the machine profile does not hold: the JVMs' command lines.
std::string jvm_command_lines(const std::vector<StoredHost>& hosts) {
    std::vector<std::string> lines;
    for (const auto& h : hosts)
        if (h.role != "client" && !h.profile.server_notes.empty())
            lines.push_back(h.profile.server_notes);
    std::sort(lines.begin(), lines.end());
    std::string out;
    for (const auto& l : lines)
        out += (out.empty() ? "" : " | ") + l;
    return out;
}

// A figure no run has (the hit rate of HTTP runs) is no row of the comparison.
void drop_empty(std::vector<Comparison::Figure>& figures) {
    std::erase_if(figures, [](const Comparison::Figure& f) {
        return std::all_of(f.values.begin(), f.values.end(),
                           [](double v) { return std::isnan(v); });
    });
}

std::vector<Comparison::Difference> differences(const std::vector<nlohmann::json>& docs,
                                                const std::set<std::string>& ignored) {
    std::vector<nlohmann::json> flat;
    std::set<std::string> keys;
    for (const auto& d : docs) {
        flat.push_back(d.flatten());
        for (const auto& [k, v] : flat.back().items())
            keys.insert(k);
    }
    std::vector<Comparison::Difference> out;
    for (const auto& key : keys) {
        if (ignored.count(key)) continue;
        Comparison::Difference d{key, {}};
        for (const auto& f : flat)
            d.values.push_back(f.contains(key) ? f[key].dump() : "-");
        if (std::set<std::string>(d.values.begin(), d.values.end()).size() > 1)
            out.push_back(std::move(d));
    }
    return out;
}

std::string figure_text(const std::string& name, double v) {
    if (std::isnan(v)) return "-";
    if (is_prometheus_figure(name)) return format_fixed(v, 3);
    if (name == "hit_rate" || name == "success" || name == "error_rate")
        return format_fixed(v * 100, 2) + "%";
    if (name.ends_with("_pct")) return format_fixed(v, 1) + "%";
    if (name.ends_with("_bytes_max")) return format_bytes(uint64_t(v));
    if (name.size() > 3 && name.compare(name.size() - 3, 3, "_us") == 0)
        return format_latency_us(int64_t(v));
    if (name == "bytes_in" || name == "bytes_out") return format_bytes(uint64_t(v));
    if (name == "duration_s") return format_fixed(v, 1) + " s";
    if (name == "throughput" || name == "rate") return format_fixed(v, 1) + "/s";
    return format_fixed(v, 0);
}

nlohmann::json number_or_null(double v) {
    return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
}

// A run's ticks, without the drains of its phases (which overlap the next phase's ticks).
std::vector<IntervalSample> ticks_of(RunStore& store, int64_t id) {
    std::vector<IntervalSample> out;
    int phase = 0;
    for (auto& s : store.samples(id)) {
        if (s.phase < phase) continue;
        phase = s.phase;
        out.push_back(std::move(s));
    }
    return out;
}

using SideTicks = std::vector<std::vector<IntervalSample>>;

SideTicks phase_ticks(const SideTicks& side, int phase) {
    SideTicks out;
    for (const auto& run : side) {
        out.emplace_back();
        for (const auto& s : run)
            if (s.phase == phase) out.back().push_back(s);
    }
    return out;
}

double mean_of(const std::vector<double>& values) {
    double sum = 0;
    int n = 0;
    for (const double v : values)
        if (!std::isnan(v)) sum += v, ++n;
    return n ? sum / n : kNone;
}

// Fills a figure's statistics from one estimate per side after the first.
void judge(Comparison::Figure& f, const std::vector<DeltaEstimate>& estimates) {
    f.verdict = {"baseline"};
    f.ci = {std::nullopt};
    f.delta_pct.resize(1);
    for (const auto& e : estimates) {
        f.higher_is_better = e.figure.higher_is_better;
        f.points = e.figure.fraction;
        f.verdict.push_back(to_string(e.verdict));
        // Ticks without latencies (a summary-only run) give no estimate; the summaries' values
        // still give the change.
        const size_t side = f.delta_pct.size();
        const double base = f.values.front(), v = side < f.values.size() ? f.values[side] : kNone;
        const bool from_values = std::isnan(e.delta) && !e.figure.fraction && !std::isnan(base) &&
                                 !std::isnan(v) && base != 0;
        f.delta_pct.push_back(from_values ? (v - base) / base * 100.0 : e.delta);
        f.ci.push_back(std::isnan(e.lo) ? std::nullopt : std::optional(std::pair(e.lo, e.hi)));
    }
}

// A server's figure against the first side's: a count the server kept (full GCs, evictions) or
// its CPU, with no interval to draw, so the threshold alone decides. Lower is better, but for
// the hit rate Redis saw; a count that rises from none is worse whatever the threshold. The
// servers' memory is told, not judged: it follows the data stored, not the server's health. A
// Prometheus series, which may fall below 0, is judged the same way, but "differs".
void judge_server_figure(Comparison::Figure& f, double threshold_pct) {
    if (f.name.ends_with("memcached_bytes_max") || f.name.ends_with("redis_memory_max")) return;
    f.higher_is_better = f.name.ends_with("redis_hit_pct");
    f.verdict = {"baseline"};
    f.ci.assign(f.values.size(), std::nullopt);
    const auto changed = [&f](bool up) {
        return f.prometheus() ? "differs" : up != f.higher_is_better ? "worse" : "better";
    };
    const double base = f.values.front();
    for (size_t i = 1; i < f.values.size(); ++i) {
        const double v = f.values[i];
        if (std::isnan(base) || std::isnan(v)) {
            f.verdict.push_back("not measured");
        } else if (base == 0) {
            f.verdict.push_back(v == 0 || (v < 0 && !f.prometheus()) ? "same" : changed(v > 0));
        } else {
            const double delta = (v - base) / std::abs(base) * 100.0;
            f.verdict.push_back(std::abs(delta) < threshold_pct ? "same" : changed(delta > 0));
        }
    }
}

const DeltaEstimate& estimate(const std::vector<DeltaEstimate>& all, const std::string& name) {
    return *std::find_if(all.begin(), all.end(),
                         [&](const DeltaEstimate& e) { return e.figure.name == name; });
}

}  // namespace

Comparison compare_runs(RunStore& store, const std::vector<int64_t>& ids) {
    std::vector<std::vector<int64_t>> sides;
    for (const int64_t id : ids)
        sides.push_back({id});
    return compare_sides(store, sides);
}

namespace {

std::string client_identity(RunStore& store, int64_t id) {
    for (const auto& h : store.hosts(id))
        if (h.role == "client") return h.profile.identity();
    return "";
}

}  // namespace

std::vector<int64_t> noise_history(RunStore& store, int64_t run,
                                   const std::vector<int64_t>& excluded, size_t most) {
    const RunInfo info = store.info(run);
    const std::string machine = client_identity(store, run);
    std::vector<int64_t> out;
    RunFilter filter;
    filter.name = info.name;
    for (const auto& r : store.list(filter)) {  // newest first
        if (out.size() >= most) break;
        if (r.name != info.name || r.status != "completed" || r.id >= run ||
            std::find(excluded.begin(), excluded.end(), r.id) != excluded.end())
            continue;
        if (client_identity(store, r.id) == machine) out.push_back(r.id);
    }
    return out;
}

namespace {

// Each prometheus series' mean and max over the run, and over each phase of several ("p2."),
// a side's value the mean over its runs. A series is matched between sides by its name and
// labels, never its endpoint (an A/B of two servers scrapes two addresses); a run with the same
// series from several endpoints has them matched in their endpoints' order. A row is named
// after the first endpoint it came from ("prometheus URL series mean"), as reports name it.
void add_prometheus_figures(RunStore& store, const std::vector<std::vector<int64_t>>& sides,
                            const std::vector<std::vector<RunSummary>>& summaries, size_t phases,
                            std::vector<Comparison::Figure>& figures) {
    struct Row {
        std::string prefix, series, suffix;
        std::vector<std::string> sources;         // per side, the stored source
        std::vector<std::vector<double>> values;  // per side, one per run
    };
    std::vector<Row> rows;  // as first seen
    std::map<std::string, size_t> row_of;
    for (size_t s = 0; s < sides.size(); ++s)
        for (size_t r = 0; r < sides[s].size(); ++r) {
            const auto probes = store.probe_samples(sides[s][r]);
            const auto add = [&](const std::string& prefix, int64_t from, int64_t to) {
                std::map<std::string, int> endpoints;  // per series, those seen so far
                for (const auto& f : prometheus_figures(probes, from, to)) {  // by source
                    const std::string series = f.key.substr(f.key.starts_with("prom.") ? 5 : 0);
                    const std::string nth = std::to_string(endpoints[series]++);
                    for (const auto& [suffix, v] : {std::pair{" mean", f.mean}, {" max", f.max}}) {
                        const auto [it, fresh] =
                            row_of.try_emplace(prefix + series + suffix + "#" + nth, rows.size());
                        if (fresh)
                            rows.push_back({prefix, series, suffix,
                                            std::vector<std::string>(sides.size()),
                                            std::vector<std::vector<double>>(sides.size())});
                        Row& row = rows[it->second];
                        if (row.sources[s].empty()) row.sources[s] = f.source;
                        row.values[s].push_back(v);
                    }
                }
            };
            add("", -1, std::numeric_limits<int64_t>::max());
            for (size_t i = 0; phases > 1 && i < phases; ++i)
                if (const auto span = phase_span(summaries[s][r], i))
                    add("p" + std::to_string(i + 1) + ".", span->first, span->second);
        }
    for (const Row& row : rows) {
        Comparison::Figure f;
        const auto named = std::find_if(row.sources.begin(), row.sources.end(),
                                        [](const std::string& x) { return !x.empty(); });
        f.name = row.prefix + *named + " " + row.series + row.suffix;
        f.series = row.series;
        for (size_t s = 0; s < sides.size(); ++s) {
            const std::string& source = row.sources[s];
            f.sources.push_back(source.substr(source.starts_with("prometheus ") ? 11 : 0));
            f.values.push_back(mean_of(row.values[s]));
            const double base = f.values.front(), v = f.values.back();
            f.delta_pct.push_back(
                std::isnan(v) || std::isnan(base) || base == 0 ? kNone : (v - base) / base * 100.0);
        }
        figures.push_back(std::move(f));
    }
}

}  // namespace

Comparison compare_sides(RunStore& store, const std::vector<std::vector<int64_t>>& sides,
                         const StatOptions& given, const std::vector<int64_t>& noise_runs) {
    Comparison c;
    c.sides = sides;
    StatOptions options = given;
    for (const int64_t id : noise_runs)
        options.history.push_back(ticks_of(store, id));
    std::vector<std::vector<RunSummary>> summaries(sides.size());
    size_t phases = 0;
    for (size_t s = 0; s < sides.size(); ++s) {
        c.runs.push_back(store.info(sides[s].front()));
        for (const int64_t id : sides[s]) {
            summaries[s].push_back(store.summary(id));
            phases = std::max(phases, summaries[s].back().phases.size());
        }
    }
    std::vector<nlohmann::json> specs, clients;
    std::set<std::string> identities;
    for (size_t s = 0; s < sides.size(); ++s) {
        // A side's value of a figure: the mean over its runs.
        std::vector<std::string> names;
        std::vector<std::vector<double>> per_run;
        for (size_t r = 0; r < sides[s].size(); ++r) {
            auto values = figures_of(summaries[s][r]);
            for (auto& v :
                 server_figures_of(summaries[s][r], store.probe_samples(sides[s][r]), phases))
                values.push_back(std::move(v));
            if (names.empty())
                for (const auto& [name, v] : values)
                    names.push_back(name), per_run.emplace_back();
            for (size_t i = 0; i < values.size() && i < per_run.size(); ++i)
                per_run[i].push_back(values[i].second);
        }
        if (c.figures.empty())
            for (const auto& name : names) {
                Comparison::Figure f;
                f.name = name;
                c.figures.push_back(std::move(f));
            }
        for (size_t i = 0; i < c.figures.size() && i < per_run.size(); ++i) {
            auto& f = c.figures[i];
            f.values.push_back(mean_of(per_run[i]));
            const double base = f.values.front();
            const double v = f.values.back();
            f.delta_pct.push_back(
                std::isnan(v) || std::isnan(base) || base == 0 ? kNone : (v - base) / base * 100.0);
        }
        const int64_t id = sides[s].front();
        specs.push_back(store.spec(id));
        nlohmann::json client = nlohmann::json::object();
        const auto hosts = store.hosts(id);
        for (const auto& h : hosts)
            if (h.role == "client") {
                client = to_json(h.profile);
                identities.insert(h.profile.identity());
            }
        if (const std::string jvms = jvm_command_lines(hosts); !jvms.empty())
            client["jvm_command_line"] = jvms;
        clients.push_back(client);
    }
    add_prometheus_figures(store, sides, summaries, phases, c.figures);
    drop_empty(c.figures);
    c.spec_differences = differences(specs, {"/name", "/notes"});
    c.hardware_differences = differences(clients, {"/mhz"});
    c.different_machines = identities.size() > 1;
    c.scope = std::all_of(sides.begin(), sides.end(), [](const auto& s) { return s.size() > 1; })
                  ? "between-runs"
              : noise_runs.size() >= 3 ? "history"
                                       : "within-run";
    if (c.scope == "history") c.noise_runs = noise_runs;

    // Statistics: every side against the first, over whole runs, then phase by phase.
    const RunKind kind = c.runs.front().kind == "http" ? RunKind::http : RunKind::cache;
    std::vector<SideTicks> ticks(sides.size());
    for (size_t s = 0; s < sides.size(); ++s)
        for (const int64_t id : sides[s])
            ticks[s].push_back(ticks_of(store, id));
    std::vector<std::vector<DeltaEstimate>> whole;
    for (size_t s = 1; s < sides.size(); ++s)
        whole.push_back(compare_ticks(kind, ticks.front(), ticks[s], options));
    for (auto& f : c.figures) {
        std::vector<DeltaEstimate> per_side;
        for (const auto& all : whole)
            for (const auto& e : all)
                if (e.figure.name == f.name) per_side.push_back(e);
        if (per_side.empty()) continue;
        // What the interval is about, not the mean of the runs' figures (a mean of p99s). A
        // summary-only run's ticks hold no latencies: its value stays its summary's.
        std::vector<double> estimated = {per_side.front().a};
        for (const auto& e : per_side)
            estimated.push_back(e.b);
        for (size_t i = 0; i < estimated.size() && i < f.values.size(); ++i)
            if (!std::isnan(estimated[i])) f.values[i] = estimated[i];
        judge(f, per_side);
    }
    for (auto& f : c.figures)
        if (!f.judged() && (is_server_figure(f.name) || f.prometheus()))
            judge_server_figure(f, options.threshold_pct);
    const nlohmann::json first_phases = specs.front().value("phases", nlohmann::json());
    const bool same_phases = std::all_of(specs.begin(), specs.end(), [&](const nlohmann::json& j) {
        return j.value("phases", nlohmann::json()) == first_phases;
    });
    if (!same_phases)
        c.warnings.push_back("the runs' phases differ: compared over whole runs only");
    else if (first_phases.is_array() && first_phases.size() > 1)
        for (int p = 0; p < int(first_phases.size()); ++p) {
            std::vector<std::vector<DeltaEstimate>> by_side;
            for (size_t s = 1; s < sides.size(); ++s)
                by_side.push_back(compare_ticks(kind, phase_ticks(ticks.front(), p),
                                                phase_ticks(ticks[s], p), options));
            for (const char* name : {"throughput", "p50_us", "p99_us", "error_rate"}) {
                Comparison::Figure f;
                f.name = "p" + std::to_string(p + 1) + "." + name;
                std::vector<DeltaEstimate> per_side;
                for (const auto& all : by_side)
                    per_side.push_back(estimate(all, name));
                f.values.push_back(per_side.front().a);
                for (const auto& e : per_side)
                    f.values.push_back(e.b);
                judge(f, per_side);
                c.figures.push_back(std::move(f));
            }
        }
    return c;
}

std::vector<std::string> worse_figures(const Comparison& c, const std::vector<std::string>& names) {
    std::vector<std::string> out;
    for (const auto& f : c.figures)
        if (std::find(names.begin(), names.end(), f.name) != names.end() &&
            std::find(f.verdict.begin(), f.verdict.end(), "worse") != f.verdict.end())
            out.push_back(f.name);
    return out;
}

namespace {

std::string signed_text(double v, int decimals) {
    return (v >= 0 ? "+" : "") + format_fixed(v, decimals);
}

// "31.0ms (+3.2% [+1.1, +5.0] worse)"; a fraction's change in points ("+0.50 pts").
std::string cell_text(const Comparison::Figure& f, size_t i) {
    std::string cell = figure_text(f.name, f.values[i]);
    if (i == 0) return cell;
    // From none to some (a first full GC) has no percentage, but a verdict.
    if (std::isnan(f.delta_pct[i]))
        return f.judged() && f.verdict[i] != "same" ? cell + " (" + f.verdict[i] + ")" : cell;
    const std::string unit = f.points ? " pts" : "%";
    cell += " (" + signed_text(f.delta_pct[i], f.points ? 2 : 1) + unit;
    if (f.judged()) {
        if (f.ci[i])
            cell += " [" + signed_text(f.ci[i]->first, 1) + ", " + signed_text(f.ci[i]->second, 1) +
                    "]";
        cell += " " + f.verdict[i];
    }
    return cell + ")";
}

std::string side_label(const Comparison& c, size_t s) {
    if (c.sides.size() <= s || c.sides[s].size() == 1)
        return "run " + std::to_string(c.runs[s].id) + " (" + c.runs[s].status + ")";
    std::string ids;
    for (const int64_t id : c.sides[s])
        ids += (ids.empty() ? "" : ",") + std::to_string(id);
    return "runs " + ids;
}

}  // namespace

std::string comparison_text(const Comparison& c) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> header = {""}, names = {"name"}, slo = {"slo"};
    for (size_t s = 0; s < c.runs.size(); ++s) {
        header.push_back(side_label(c, s));
        names.push_back(c.runs[s].name.substr(0, 30));
        slo.push_back(verdict_text(c.runs[s]));
    }
    rows.push_back(header);
    rows.push_back(names);
    rows.push_back(slo);
    for (const auto& f : c.figures) {
        const char* way = f.prometheus() ? " (↕)" : f.higher_is_better ? " (↑)" : " (↓)";
        std::vector<std::string> row = {f.judged() ? f.name + way : f.name};
        for (size_t i = 0; i < f.values.size(); ++i)
            row.push_back(cell_text(f, i));
        rows.push_back(std::move(row));
    }
    std::vector<size_t> widths;
    for (const auto& row : rows)
        for (size_t i = 0; i < row.size(); ++i) {
            // Display width: the arrows are one column but three bytes.
            size_t w = 0;
            for (const unsigned char ch : row[i])
                w += (ch & 0xC0) != 0x80;
            if (widths.size() <= i) widths.push_back(0);
            widths[i] = std::max(widths[i], w + 2);
        }
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (size_t i = 0; i < row.size(); ++i) {
            size_t w = 0;
            for (const unsigned char ch : row[i])
                w += (ch & 0xC0) != 0x80;
            line += row[i] + std::string(widths[i] - w, ' ');
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    out +=
        "(↑) higher is better, (↓) lower: the change against the first run, its 95% interval "
        "[lo, hi] and the verdict (same: within the noise or under the threshold; the servers' "
        "figures are their own counts, judged by the threshold alone; (↕) a Prometheus series "
        "beyond it differs, neither better nor worse)\n";
    if (c.scope == "history") {
        std::string ids;
        for (const int64_t id : c.noise_runs)
            ids += (ids.empty() ? "" : ",") + std::to_string(id);
        out += "Run-to-run noise from " + std::to_string(c.noise_runs.size()) +
               " earlier runs of this name on this machine (" + ids +
               "): their spread is added to each side of one run\n";
    } else if (c.scope == "within-run")
        out +=
            "Within-run noise only: a side of one run cannot show how much a second run of the "
            "same server differs\n(warm-up, heap, the machine's other load). For run-to-run "
            "noise compare series (perflab run SPEC --repeat N,\nthen compare ID,ID,... "
            "ID,ID,...) or run perflab ab A.json B.json --repeat N\n";
    else
        out += "Run-to-run noise included: every side is several runs, drawn again as runs\n";
    for (const auto& w : c.warnings)
        out += "Warning: " + w + "\n";
    const auto list = [&](const char* title, const std::vector<Comparison::Difference>& ds) {
        out += title;
        out += ds.empty() ? " none\n" : "\n";
        for (const auto& d : ds) {
            out += "  " + d.field + ":";
            for (const auto& v : d.values)
                out += " " + v;
            out += "\n";
        }
    };
    list("Spec differences:", c.spec_differences);
    list("Machine differences:", c.hardware_differences);
    if (c.different_machines)
        out +=
            "Warning: these runs were made on different machines; their figures may not be "
            "comparable.\n";
    return out;
}

nlohmann::json to_json(const Comparison& c) {
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& r : c.runs)
        runs.push_back({{"id", r.id},
                        {"name", r.name},
                        {"status", r.status},
                        {"kind", r.kind},
                        {"slo", verdict_text(r)}});
    nlohmann::json figures = nlohmann::json::object();
    for (const auto& f : c.figures) {
        nlohmann::json values = nlohmann::json::array(), deltas = nlohmann::json::array();
        for (size_t i = 0; i < f.values.size(); ++i) {
            values.push_back(number_or_null(f.values[i]));
            deltas.push_back(number_or_null(f.delta_pct[i]));
        }
        figures[f.name] = {{"values", values}, {"delta_pct", deltas}};
        if (f.judged()) {
            nlohmann::json ci = nlohmann::json::array();
            for (const auto& range : f.ci)
                ci.push_back(range ? nlohmann::json::array({range->first, range->second})
                                   : nlohmann::json(nullptr));
            figures[f.name]["verdict"] = f.verdict;
            figures[f.name]["ci_pct"] = ci;
            figures[f.name]["higher_is_better"] =
                f.prometheus() ? nlohmann::json(nullptr) : nlohmann::json(f.higher_is_better);
            figures[f.name]["unit"] = f.points ? "points" : "%";
        }
        if (f.prometheus()) {
            figures[f.name]["series"] = f.series;
            nlohmann::json sources = nlohmann::json::array();
            for (const auto& source : f.sources)
                sources.push_back(source.empty() ? nlohmann::json(nullptr)
                                                 : nlohmann::json(source));
            figures[f.name]["sources"] = sources;
        }
    }
    const auto diffs = [](const std::vector<Comparison::Difference>& ds) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& d : ds)
            j.push_back({{"field", d.field}, {"values", d.values}});
        return j;
    };
    return {{"runs", runs},
            {"figures", figures},
            {"spec_differences", diffs(c.spec_differences)},
            {"hardware_differences", diffs(c.hardware_differences)},
            {"different_machines", c.different_machines},
            {"sides", c.sides},
            {"scope", c.scope},
            {"noise_runs", c.noise_runs},
            {"warnings", c.warnings}};
}

}  // namespace perflab
