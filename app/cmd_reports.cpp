// SPDX-License-Identifier: MIT
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commands.h"
#include "drawn_report.h"
#include "hgrm_export.h"
#include "hlog_export.h"
#include "prometheus_figures.h"
#include "run_bundle.h"
#include "run_compare.h"
#include "run_report.h"
#include "run_store.h"
#include "server_figures.h"
#include "store_access.h"

namespace perflab {

namespace {

// --from/--to as a window; an error message when malformed.
std::optional<Window> parse_window(const ShowOptions& o, std::string& error) {
    Window w;
    if (!o.from.empty()) {
        const auto ms = parse_duration_ms(o.from);
        if (!ms) {
            error = "--from: \"" + o.from + "\" is not a duration (10s, 1m30s, 500ms)";
            return std::nullopt;
        }
        w.from_ms = *ms;
    }
    if (!o.to.empty()) {
        const auto ms = parse_duration_ms(o.to);
        if (!ms) {
            error = "--to: \"" + o.to + "\" is not a duration (10s, 1m30s, 500ms)";
            return std::nullopt;
        }
        w.to_ms = *ms;
    }
    if (w.to_ms <= std::max<int64_t>(w.from_ms, 0)) {
        error = "--to: must be after --from";
        return std::nullopt;
    }
    return w;
}

// A cache run's ops go to one file each: FILE.hgrm becomes FILE.get.hgrm, FILE.set.hgrm.
std::string op_file(const std::string& output, const std::string& op) {
    const std::string suffix = ".hgrm";
    const bool has_suffix =
        output.size() > suffix.size() &&
        output.compare(output.size() - suffix.size(), suffix.size(), suffix) == 0;
    return (has_suffix ? output.substr(0, output.size() - suffix.size()) : output) + "." + op +
           suffix;
}

// One HdrHistogram percentile distribution per file (the format holds one): an HTTP run's
// requests in FILE itself, the rest in FILE.NAME.hgrm; on stdout, one after the other, each
// named one under a "# op: NAME" line.
int export_hgrm(const RunSummary& summary, const hdr::Layout& layout, const std::string& output) {
    const auto histograms = hgrm_histograms(summary);
    if (output.empty()) {
        std::string text;
        for (const auto& [op, h] : histograms) {
            if (!text.empty()) text += "\n";
            if (!op.empty()) text += "# op: " + op + "\n";
            text += hgrm_text(h, layout);
        }
        return write_output(output, text) ? kExitOk : kExitBadInput;
    }
    for (const auto& [op, h] : histograms) {
        if (op.empty()) {
            if (!write_output(output, hgrm_text(h, layout))) return kExitBadInput;
            continue;
        }
        const std::string path = op_file(output, op);
        if (!write_output(path, hgrm_text(h, layout))) return kExitBadInput;
        std::fprintf(stderr, "%s: %llu %s latencies\n", path.c_str(),
                     static_cast<unsigned long long>(h.count()), op.c_str());
    }
    return kExitOk;
}

}  // namespace

int show_command(const ShowOptions& o) {
    std::string error;
    const auto window = parse_window(o, error);
    if (!window) return bad_input(error);
    try {
        RunStore store(database_path(o.db), Access::read);
        const RunInfo run = store.info(o.id);
        // A window that holds no tick of the run would report zeros as if they were figures.
        std::string outside;
        if (!o.from.empty()) outside = outside_run(run, window->from_ms, "--from", true);
        if (outside.empty() && !o.to.empty()) outside = outside_run(run, window->to_ms, "--to");
        if (!outside.empty()) return bad_input(outside);
        const RunReport report = load_report(store, o.id, *window);
        if (o.json)
            std::cout << report_json(report).dump(2) << std::endl;
        else
            std::cout << report_text(report) << std::flush;
        return kExitOk;
    } catch (const StoreError& e) {
        return bad_input(e.what());
    }
}

namespace {

// "a,b,,c" → {"a", "b", "", "c"}.
std::vector<std::string> comma_parts(const std::string& text) {
    std::vector<std::string> parts;
    for (size_t from = 0; from <= text.size();) {
        const size_t comma = std::min(text.find(',', from), text.size());
        parts.push_back(text.substr(from, comma - from));
        from = comma + 1;
    }
    return parts;
}

// "12,13" → {12, 13}; nullopt for anything else.
std::optional<std::vector<int64_t>> side_ids(const std::string& text) {
    std::vector<int64_t> ids;
    for (const auto& part : comma_parts(text)) {
        char* end = nullptr;
        const long long id = std::strtoll(part.c_str(), &end, 10);
        if (part.empty() || *end != '\0' || id <= 0) return std::nullopt;
        ids.push_back(id);
    }
    return ids;
}

// The comparison's name for a figure --figures may give as "p99", or per phase as "p2.p99".
std::optional<std::string> figure_name(const std::string& given) {
    static const std::pair<const char*, const char*> kNames[] = {
        {"throughput", "throughput"},
        {"error_rate", "error_rate"},
        {"success", "success"},
        {"hit_rate", "hit_rate"},
        {"mean", "mean_us"},
        {"p50", "p50_us"},
        {"p90", "p90_us"},
        {"p99", "p99_us"},
        {"p999", "p999_us"},
        {"full_gcs", "jvm_full_gcs"},
        {"gc_time", "jvm_gc_ms"},
        {"evictions", "memcached_evictions"},
        {"redis_evictions", "redis_evictions"},
        {"redis_hit_rate", "redis_hit_pct"},
        {"host_cpu", "host_cpu_mean_pct"},
        {"host_cpu_max", "host_cpu_max_pct"}};
    std::string phase, bare = given;
    if (const size_t dot = given.find('.'); dot != std::string::npos && dot > 1 &&
                                            given[0] == 'p' &&
                                            given.find_first_not_of("0123456789", 1) == dot) {
        phase = given.substr(0, dot + 1);
        bare = given.substr(dot + 1);
    }
    for (const auto& [name, figure] : kNames)
        if (bare == name || bare == figure) return phase + figure;
    return std::nullopt;
}

}  // namespace

int compare_command(const CompareOptions& o) {
    std::vector<std::vector<int64_t>> sides;
    for (const auto& text : o.sides) {
        const auto ids = side_ids(text);
        if (!ids) return bad_input("compare: \"" + text + "\" is not a run id or ID,ID,... list");
        sides.push_back(*ids);
    }
    std::vector<std::string> checked;
    for (const auto& given : comma_parts(o.figures)) {
        const auto name = figure_name(given);
        if (!name)
            return bad_input("compare --figures: unknown figure \"" + given +
                             "\" (throughput, error_rate, success, hit_rate, mean, p50, p90, "
                             "p99, p999, full_gcs, gc_time, evictions, redis_evictions, "
                             "redis_hit_rate, host_cpu, host_cpu_max; "
                             "per phase as p2.p99)");
        checked.push_back(*name);
    }
    try {
        RunStore store(database_path(o.db), Access::read);
        std::vector<int64_t> noise;
        if (o.baseline) {
            if (sides.size() != 1) return bad_input("compare --baseline: give one run (or series)");
            const std::string name = store.info(sides.front().front()).name;
            const auto base = store.baseline_of(name);
            if (!base)
                return bad_input("compare --baseline: no baseline for runs named \"" + name +
                                 "\"; mark one with: perflab baseline ID");
            // A single new run shows no run-to-run noise; its name's earlier runs on this
            // machine do, when there are enough of them.
            if (sides.front().size() == 1) {
                noise = noise_history(store, sides.front().front(), sides.front());
                if (noise.size() < 3) noise.clear();
            }
            sides.insert(sides.begin(), {*base});
        }
        if (sides.size() < 2) return bad_input("compare: give at least two runs");
        StatOptions stats;
        stats.threshold_pct = o.threshold;
        const Comparison c = compare_sides(store, sides, stats, noise);
        // A server's figure exists only where a probe sampled it: checking one no run has
        // would pass for want of a value.
        for (const auto& name : checked)
            if (o.check && is_server_figure(name) &&
                std::none_of(c.figures.begin(), c.figures.end(),
                             [&](const Comparison::Figure& f) { return f.name == name; }))
                return bad_input("compare --figures: no run has " + name +
                                 " (it comes from a probe of the servers; see perflab probe)");
        if (o.json)
            std::cout << to_json(c).dump(2) << std::endl;
        else
            std::cout << comparison_text(c) << std::flush;
        if (!o.check) return kExitOk;
        const auto worse = worse_figures(c, checked);
        std::string list;
        for (const auto& w : worse)
            list += (list.empty() ? "" : ", ") + w;
        std::fprintf(o.json ? stderr : stdout, "check: %s\n",
                     worse.empty() ? "no figure is worse" : ("worse: " + list).c_str());
        return worse.empty() ? kExitOk : kExitCheckFailed;
    } catch (const StoreError& e) {
        return bad_input(e.what());
    }
}

int export_command(const ExportOptions& o) {
    const auto ids = side_ids(o.ids);
    if (!ids || ids->empty())
        return bad_input("export: \"" + o.ids + "\" is not a run id" +
                         (o.format == "bundle" ? " or ID,ID,... list" : ""));
    if (o.format == "bundle") {
        if (o.output.empty())
            return bad_input("export --format bundle: give the file to write (-o run.perflab)");
        try {
            export_bundle(database_path(o.db), *ids, o.output);
        } catch (const StoreError& e) {
            return bad_input(e.what());
        }
        std::cerr << ids->size() << (ids->size() == 1 ? " run" : " runs") << " written to "
                  << o.output << "\n";
        return kExitOk;
    }
    if (ids->size() != 1)
        return bad_input("export --format " + o.format +
                         ": give one run id (several go into a bundle: --format bundle)");
    const int64_t id = ids->front();
    if (o.format == "pdf" || o.format == "html")
        return export_drawn_report(database_path(o.db), id, o.output, o.format);
    std::string text;
    try {
        RunStore store(database_path(o.db), Access::read);
        if (o.format == "hgrm")
            return export_hgrm(store.summary(id), hgrm_layout(store.spec(id)), o.output);
        if (o.format == "md") {
            text = report_markdown(load_report(store, id));
        } else if (o.format == "csv") {
            const RunSummary summary = store.summary(id);
            text = ticks_csv(store.samples(id), summary.kind, summary.redis_cluster);
        } else if (o.format == "probes-csv") {
            text = probes_csv(store.probe_samples(id));
        } else if (o.format == "json") {
            text = export_json(store, id).dump(2) + "\n";
        } else if (o.format == "hlog") {
            text = hlog_text(store.info(id), store.samples(id), store.summary(id));
        } else {
            return bad_input(
                "--format: \"" + o.format +
                "\" is not one of md, html, pdf, csv, probes-csv, json, hgrm, hlog, bundle");
        }
    } catch (const StoreError& e) {
        return bad_input(e.what());
    }
    return write_output(o.output, text) ? kExitOk : kExitBadInput;
}

}  // namespace perflab
