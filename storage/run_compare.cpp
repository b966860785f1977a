// SPDX-License-Identifier: MIT
#include "run_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "model/figures.h"
#include "model/format.h"
#include "server_figures.h"

namespace perflab {

namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// The figures a reader compares first: the run's figures.h, as `run` reports them.
std::vector<std::pair<std::string, double>> figures_of(const RunSummary& s) {
    const IntervalSample& t = s.overall.totals;
    const Figures f = figures(s.kind, s.overall);
    const Histogram& h = f.latency;
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
        {"errors", double(f.errors)},
        {"hit_rate", f.hit_rate.value_or(kNone)},
        {"bytes_in", double(t.bytes_in)},
        {"bytes_out", double(t.bytes_out)},
    };
}

// The servers' figures over the run, then, when a run has several phases, over each phase
// ("p2.jvm_full_gcs"): a phase from its start to the next one's.
std::vector<std::pair<std::string, double>> server_figures_of(
    const RunSummary& s, const std::vector<ProbeSample>& probes, size_t phases) {
    auto out = server_figures(probes, -1, std::numeric_limits<int64_t>::max());
    for (size_t i = 0; phases > 1 && i < phases; ++i) {
        const bool ran = i < s.phases.size() && s.phases[i].totals.t_ms > 0;
        const int64_t from = ran ? s.phases[i].start_ms : 0;
        const int64_t to = !ran                      ? -1
                           : i + 1 < s.phases.size() ? s.phases[i + 1].start_ms
                                                     : std::numeric_limits<int64_t>::max();
        for (auto& [name, v] : server_figures(probes, from, to))
            out.emplace_back("p" + std::to_string(i + 1) + "." + name, ran ? v : kNone);
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

std::string pad(const std::string& s, size_t width) {
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

nlohmann::json number_or_null(double v) {
    return std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
}

}  // namespace

Comparison compare_runs(RunStore& store, const std::vector<int64_t>& ids) {
    Comparison c;
    std::vector<RunSummary> summaries;
    size_t phases = 0;
    for (const int64_t id : ids) {
        c.runs.push_back(store.info(id));
        summaries.push_back(store.summary(id));
        phases = std::max(phases, summaries.back().phases.size());
    }
    std::vector<nlohmann::json> specs, clients;
    std::set<std::string> identities;
    for (size_t r = 0; r < ids.size(); ++r) {
        const int64_t id = ids[r];
        auto values = figures_of(summaries[r]);
        for (auto& v : server_figures_of(summaries[r], store.probe_samples(id), phases))
            values.push_back(std::move(v));
        if (c.figures.empty())
            for (const auto& [name, v] : values)
                c.figures.push_back({name, {}, {}});
        for (size_t i = 0; i < values.size(); ++i) {
            auto& f = c.figures[i];
            f.values.push_back(values[i].second);
            const double base = f.values.front();
            const double v = values[i].second;
            f.delta_pct.push_back(
                std::isnan(v) || std::isnan(base) || base == 0 ? kNone : (v - base) / base * 100.0);
        }
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
    drop_empty(c.figures);
    c.spec_differences = differences(specs, {"/name", "/notes"});
    c.hardware_differences = differences(clients, {"/mhz"});
    c.different_machines = identities.size() > 1;
    return c;
}

std::string comparison_text(const Comparison& c) {
    constexpr size_t kLabel = 24, kColumn = 22;
    std::string out = pad("", kLabel);
    for (const auto& r : c.runs)
        out += pad("run " + std::to_string(r.id) + " (" + r.status + ")", kColumn);
    out += "\n" + pad("name", kLabel);
    for (const auto& r : c.runs)
        out += pad(r.name.substr(0, kColumn - 2), kColumn);
    out += "\n" + pad("slo", kLabel);
    for (const auto& r : c.runs)
        out += pad(verdict_text(r), kColumn);
    out += "\n";
    for (const auto& f : c.figures) {
        out += pad(f.name, kLabel);
        for (size_t i = 0; i < f.values.size(); ++i) {
            std::string cell = figure_text(f.name, f.values[i]);
            if (i > 0 && !std::isnan(f.delta_pct[i]))
                cell += " (" + std::string(f.delta_pct[i] >= 0 ? "+" : "") +
                        format_fixed(f.delta_pct[i], 1) + "%)";
            out += pad(cell, kColumn);
        }
        out += "\n";
    }
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
            {"different_machines", c.different_machines}};
}

}  // namespace perflab
