// SPDX-License-Identifier: MIT
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "model/format.h"
#include "run_report.h"
#include "run_store.h"
#include "store_access.h"

namespace perflab {

namespace {

// Throughput is successful operations per second, as `run` reports it; success beside the
// error count, so a run whose requests failed says so on its line.
std::string figures_line(const RunInfo& r) {
    const auto& f = r.figures;
    std::string s = format_fixed(f.throughput, 1) + "/s p99:" + format_latency_ms(f.p99_us);
    if (f.hit_rate >= 0) s += " hit:" + format_fixed(f.hit_rate * 100, 2) + "%";
    s += " ok:" + format_fixed(f.success * 100, 2) + "%";
    return s + " err:" + std::to_string(f.errors);
}

nlohmann::json run_json(const RunInfo& r) {
    const auto& f = r.figures;
    nlohmann::json j = {{"id", r.id},
                        {"name", r.name},
                        {"kind", r.kind},
                        {"status", r.status},
                        {"started_at", format_wall(r.started_at_ms)},
                        {"started_at_ms", r.started_at_ms},
                        {"duration_s", f.duration_s},
                        {"tags", r.tags},
                        {"ops", f.ops},
                        {"rate", f.rate},
                        {"throughput", f.throughput},
                        {"p99_us", f.p99_us},
                        {"success", f.success},
                        {"error_rate", f.error_rate},
                        {"errors", f.errors},
                        {"slo", r.slo ? nlohmann::json(r.slo->passed ? "PASS" : "FAIL") : nullptr}};
    if (r.search)
        j["max_rate"] = r.search->max_rate ? nlohmann::json(*r.search->max_rate) : nullptr;
    if (r.kind != "http") j["hit_rate"] = f.hit_rate >= 0 ? nlohmann::json(f.hit_rate) : nullptr;
    return j;
}

// Runs an edit of one run; every store problem is bad input (exit 2).
template <class F>
int edit(const EditOptions& o, F&& f, const char* done) {
    try {
        RunStore store(database_path(o.db), Access::read);
        f(store);
        std::printf("run %lld %s\n", static_cast<long long>(o.id), done);
        return kExitOk;
    } catch (const StoreError& e) {
        return bad_input(e.what());
    }
}

}  // namespace

int runs_command(const RunsOptions& o) {
    const std::string path = database_path(o.db);
    std::vector<RunInfo> runs;
    try {
        RunStore store(path, Access::read);
        runs = store.list({o.kind, o.tag, o.name});
    } catch (const StoreError& e) {
        return bad_input(e.what());
    }
    if (o.json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& r : runs)
            j.push_back(run_json(r));
        std::cout << j.dump(2) << std::endl;
        return kExitOk;
    }
    if (runs.empty()) std::printf("no runs in %s\n", path.c_str());
    for (const auto& r : runs) {
        std::string tags;
        for (const auto& t : r.tags)
            tags += " #" + t;
        std::printf("%5lld  %s  %-11s %-5s %-4s %7.1fs  %s  %s%s\n", static_cast<long long>(r.id),
                    format_wall(r.started_at_ms).c_str(), r.status.c_str(), r.kind.c_str(),
                    verdict_text(r).c_str(), r.figures.duration_s, figures_line(r).c_str(),
                    r.name.c_str(), tags.c_str());
    }
    return kExitOk;
}

int delete_command(const EditOptions& o) {
    return edit(
        o, [&](RunStore& s) { s.remove(o.id); }, "deleted");
}

int note_command(const EditOptions& o) {
    if (o.text.empty()) return bad_input("note: the text is empty");
    if (!o.at.empty()) {
        const auto t_ms = parse_duration_ms(o.at);
        if (!t_ms) return bad_input("note --at: \"" + o.at + "\" is not a time such as 42s or 1m");
        try {
            const std::string outside = outside_run(
                RunStore(database_path(o.db), Access::read).info(o.id), *t_ms, "note --at");
            if (!outside.empty()) return bad_input(outside);
        } catch (const StoreError& e) {
            return bad_input(e.what());
        }
        return edit(
            o, [&](RunStore& s) { s.annotate(o.id, *t_ms, o.text); }, "annotated");
    }
    return edit(
        o, [&](RunStore& s) { s.add_note(o.id, o.text); }, "noted");
}

int tag_command(const EditOptions& o) {
    if (o.text.empty()) return bad_input("tag: the tag is empty");
    return edit(
        o, [&](RunStore& s) { s.add_tag(o.id, o.text); }, ("tagged " + o.text).c_str());
}

int baseline_command(const EditOptions& o) {
    return edit(
        o, [&](RunStore& s) { s.set_baseline(o.id); }, "is the baseline of its name");
}

}  // namespace perflab
