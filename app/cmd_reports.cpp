// SPDX-License-Identifier: MIT
#include <cstdio>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "hlog_export.h"
#include "run_compare.h"
#include "run_report.h"
#include "run_store.h"
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

}  // namespace

int show_command(const ShowOptions& o) {
    std::string error;
    const auto window = parse_window(o, error);
    if (!window) return bad_input(error);
    try {
        RunStore store(database_path(o.db), Access::read);
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

int compare_command(const CompareOptions& o) {
    if (o.ids.size() < 2) return bad_input("compare: give at least two run ids");
    try {
        RunStore store(database_path(o.db), Access::read);
        const Comparison c = compare_runs(store, o.ids);
        if (o.json)
            std::cout << to_json(c).dump(2) << std::endl;
        else
            std::cout << comparison_text(c) << std::flush;
        return kExitOk;
    } catch (const StoreError& e) {
        return bad_input(e.what());
    }
}

int export_command(const ExportOptions& o) {
    std::string text;
    try {
        RunStore store(database_path(o.db), Access::read);
        if (o.format == "md") {
            text = report_markdown(load_report(store, o.id));
        } else if (o.format == "html") {
            text = report_html(load_report(store, o.id));
        } else if (o.format == "csv") {
            store.info(o.id);
            text = ticks_csv(store.samples(o.id));
        } else if (o.format == "json") {
            text = export_json(store, o.id).dump(2) + "\n";
        } else if (o.format == "hgrm") {
            text = hgrm_text(store.summary(o.id).overall.totals.latency());
        } else if (o.format == "hlog") {
            text = hlog_text(store.info(o.id), store.samples(o.id));
        } else {
            return bad_input("--format: \"" + o.format +
                             "\" is not one of md, html, csv, json, hgrm, hlog");
        }
    } catch (const StoreError& e) {
        return bad_input(e.what());
    }
    return write_output(o.output, text) ? kExitOk : kExitBadInput;
}

}  // namespace perflab
