// SPDX-License-Identifier: MIT
#include "run_store.h"

#include "agent_figures.h"
#include "model/phase_load_report.h"
#include "model/secrets.h"
#include "process_stamp.h"

namespace perflab {

namespace {

RunKind kind_of(const std::string& text) {
    return text == "http" ? RunKind::http : RunKind::cache;
}

RunStatus status_of(const std::string& text) {
    for (auto s : {RunStatus::running, RunStatus::completed, RunStatus::stopped, RunStatus::failed,
                   RunStatus::interrupted, RunStatus::imported})
        if (text == to_string(s)) return s;
    return RunStatus::interrupted;
}

}  // namespace

RunStore::RunStore(const std::string& path, Access access)
    : path_(path), db_(open_database(path, access)) {
    mark_interrupted();
    refresh_figures();
}

void RunStore::refresh_figures() {
    std::vector<int64_t> stale;
    {
        Statement q(*db_, "SELECT id FROM runs WHERE status <> 'running' AND figures_version < ?1");
        q.bind(1, int64_t{kFiguresVersion});
        while (q.step())
            stale.push_back(q.integer(0));
    }
    for (const int64_t id : stale) {
        const KeyFigures k = key_figures(summary(id));
        Transaction tx(*db_);
        update_key_figures(*db_, id, k);
        tx.commit();
    }
}

void RunStore::mark_interrupted() {
    struct Orphan {
        int64_t id;
        RunKind kind;
        int64_t started_at_ms;
    };
    std::vector<Orphan> orphans;
    {
        Statement q(*db_,
                    "SELECT id, kind, started_at_ms, writer_pid, writer_start FROM runs "
                    "WHERE status = 'running'");
        while (q.step())
            if (!is_alive({q.integer(3), q.integer(4)}))
                orphans.push_back({q.integer(0), kind_of(q.text(1)), q.integer(2)});
    }
    for (const auto& o : orphans) {
        SummaryBuilder builder(o.kind);
        int64_t last_ms = 0;
        for_each_sample(*db_, o.id, -1, std::numeric_limits<int64_t>::max(),
                        [&](IntervalSample&& s) {
                            builder.add(s);
                            last_ms = s.t_ms;
                        });
        Transaction tx(*db_);
        RunRows rows(*db_);
        rows.finish(o.id, builder.finish(RunStatus::interrupted), o.started_at_ms + last_ms);
        tx.commit();
    }
}

std::vector<RunInfo> RunStore::query(const std::string& where, int64_t id,
                                     const RunFilter& filter) {
    const std::string sql =
        "SELECT id, name, kind, status, error, started_at_ms, ended_at_ms, notes, duration_s, ops, "
        "errors, throughput, p99_us, hit_rate, success, rate, error_rate, slo_json, search_json, "
        "summary_only FROM runs "
        "WHERE " +
        where + " ORDER BY started_at_ms DESC, id DESC";
    Statement q(*db_, sql.c_str());
    // Parameters the condition does not use are ignored by SQLite.
    q.bind(1, id).bind(2, filter.kind).bind(3, filter.tag).bind(4, filter.name);
    std::vector<RunInfo> out;
    while (q.step()) {
        RunInfo r;
        r.id = q.integer(0);
        r.name = q.text(1);
        r.kind = q.text(2);
        r.status = q.text(3);
        r.error = q.text(4);
        r.started_at_ms = q.integer(5);
        r.ended_at_ms = q.is_null(6) ? 0 : q.integer(6);
        r.notes = q.text(7);
        r.figures.duration_s = q.real(8);
        r.figures.ops = uint64_t(q.integer(9));
        r.figures.errors = uint64_t(q.integer(10));
        r.figures.throughput = q.real(11);
        r.figures.p99_us = q.integer(12);
        r.figures.hit_rate = q.is_null(13) ? -1 : q.real(13);
        r.figures.success = q.is_null(14) ? 0 : q.real(14);
        r.figures.rate = q.real(15);
        r.figures.error_rate = q.real(16);
        if (!q.is_null(17))
            r.slo = slo_verdict_from_json(nlohmann::json::parse(q.text(17), nullptr, false));
        if (!q.is_null(18))
            r.search = search_result_from_json(nlohmann::json::parse(q.text(18), nullptr, false));
        r.summary_only = q.integer(19) != 0;
        out.push_back(std::move(r));
    }
    Statement tags(*db_, "SELECT tag FROM run_tags WHERE run_id = ?1 ORDER BY tag");
    for (auto& r : out) {
        tags.bind(1, r.id);
        while (tags.step())
            r.tags.push_back(tags.text(0));
    }
    return out;
}

std::vector<RunInfo> RunStore::list(const RunFilter& filter) {
    return query(
        "(?2 = '' OR kind = ?2) "
        "AND (?3 = '' OR id IN (SELECT run_id FROM run_tags WHERE tag = ?3)) "
        "AND (?4 = '' OR instr(lower(name), lower(?4)) > 0)",
        0, filter);
}

RunInfo RunStore::info(int64_t id) {
    auto found = query("id = ?1", id, {});
    if (found.empty()) throw StoreError("no run " + std::to_string(id) + " in " + path_);
    return found.front();
}

nlohmann::json RunStore::spec(int64_t id) {
    Statement q(*db_, "SELECT spec_json FROM runs WHERE id = ?1");
    q.bind(1, id);
    if (!q.step()) throw StoreError("no run " + std::to_string(id) + " in " + path_);
    auto j = nlohmann::json::parse(q.text(0), nullptr, false);
    q.run();
    // Masked again for the runs stored before credentials were masked on the way in.
    return j.is_discarded() ? nlohmann::json::object() : masked_for_storage(std::move(j));
}

std::vector<IntervalSample> RunStore::samples(int64_t id, const Window& window) {
    return read_samples(*db_, id, window.from_ms, window.to_ms);
}

// A finished run's histograms per phase and overall were stored at its end: they equal the
// merge of its ticks' histograms, and reading them costs one decode per op and phase instead
// of one per op and tick.
bool RunStore::final_histograms(int64_t id, RunSummary& summary) {
    Statement q(*db_,
                "SELECT phase, op, histogram, service FROM final_histograms WHERE run_id = ?1");
    q.bind(1, id);
    bool any = false;
    while (q.step()) {
        const int phase = int(q.integer(0));
        auto h = Histogram::decode(q.blob(2));
        if (!h || phase >= int(summary.phases.size())) continue;
        auto& totals = phase < 0 ? summary.overall.totals : summary.phases[size_t(phase)].totals;
        OpSample& op = totals.ops[q.text(1)];
        op.latency = std::move(*h);
        if (!q.is_null(3))
            if (auto service = Histogram::decode(q.blob(3))) op.service = std::move(*service);
        any = true;
    }
    return any;
}

RunSummary RunStore::summary(int64_t id, const Window& window) {
    const RunInfo run = info(id);
    if (run.summary_only && !window.whole())
        throw StoreError("run " + std::to_string(id) +
                         " is summary only: its ticks hold counts but no latencies, so a window "
                         "of it cannot be analysed again; show the whole run");
    const auto build = [&](bool from_ticks) {
        SummaryBuilder builder(kind_of(run.kind));
        if (from_ticks)
            for_each_sample(*db_, id, window.from_ms, window.to_ms,
                            [&](IntervalSample&& s) { builder.add(s); });
        else
            for (const auto& s : read_phase_sums(*db_, id))
                builder.add(s);
        return builder.finish(status_of(run.status));
    };
    const bool finished = run.status != "running" && window.whole();
    RunSummary summary = build(!finished);
    if (finished && summary.overall.totals.total_ops() > 0 && !final_histograms(id, summary))
        summary = build(true);
    summary.error = run.error;
    if (window.whole()) {
        summary.slo = run.slo;
        summary.search = run.search;
        summary.agents = read_agents(*db_, id);
    }
    Statement q(*db_, "SELECT prefill_sets FROM runs WHERE id = ?1");
    q.bind(1, id);
    if (q.step()) summary.prefill_sets = uint64_t(q.integer(0));
    q.run();
    const nlohmann::json stored_spec = spec(id);
    if (const auto seed = stored_spec.find("seed");
        seed != stored_spec.end() && seed->is_number_unsigned())
        summary.seed = seed->get<uint64_t>();
    if (const auto parsed = parse_stored_spec(stored_spec)) {
        summary.phase_loads = phase_loads(*parsed.spec);
        summary.redis_cluster = is_redis_cluster(*parsed.spec);
    }
    return summary;
}

std::vector<RunEvent> RunStore::events(int64_t id) {
    Statement q(*db_, "SELECT t_ms, kind, text FROM events WHERE run_id = ?1 ORDER BY t_ms, rowid");
    q.bind(1, id);
    std::vector<RunEvent> out;
    while (q.step())
        out.push_back({q.integer(0), q.text(1), q.text(2)});
    return out;
}

std::vector<ProbeSample> RunStore::probe_samples(int64_t id) {
    Statement q(*db_,
                "SELECT t_ms, source, kind, values_json, gap FROM probe_samples "
                "WHERE run_id = ?1 ORDER BY t_ms, rowid");
    q.bind(1, id);
    std::vector<ProbeSample> out;
    while (q.step()) {
        ProbeSample p;
        p.t_ms = q.integer(0);
        p.source = q.text(1);
        p.kind = q.text(2);
        p.values = nlohmann::json::parse(q.text(3), nullptr, false);
        if (p.values.is_discarded()) p.values = nlohmann::json::object();
        p.gap = q.integer(4) != 0;
        out.push_back(std::move(p));
    }
    return out;
}

std::vector<StoredHost> RunStore::hosts(int64_t id) {
    Statement q(*db_,
                "SELECT run_hosts.role, hosts.profile_json FROM run_hosts JOIN hosts "
                "ON hosts.id = run_hosts.host_id WHERE run_hosts.run_id = ?1 "
                "ORDER BY run_hosts.role, hosts.hostname");
    q.bind(1, id);
    std::vector<StoredHost> out;
    while (q.step())
        out.push_back(
            {q.text(0), profile_from_json(nlohmann::json::parse(q.text(1), nullptr, false))});
    return out;
}

void RunStore::remove(int64_t id) {
    info(id);
    Transaction tx(*db_);
    Statement q(*db_, "DELETE FROM runs WHERE id = ?1");
    q.bind(1, id);
    q.run();
    // Hosts no run refers to any more go with their last run.
    db_->exec("DELETE FROM hosts WHERE id NOT IN (SELECT host_id FROM run_hosts)");
    tx.commit();
}

void RunStore::add_note(int64_t id, const std::string& text) {
    info(id);
    Statement q(*db_,
                "UPDATE runs SET notes = CASE WHEN notes = '' THEN ?2 ELSE notes || char(10) || ?2 "
                "END WHERE id = ?1");
    q.bind(1, id).bind(2, text);
    q.run();
}

void RunStore::annotate(int64_t id, int64_t t_ms, const std::string& text) {
    info(id);
    Statement q(*db_, "INSERT INTO events (run_id, t_ms, kind, text) VALUES (?1, ?2, 'note', ?3)");
    q.bind(1, id).bind(2, t_ms).bind(3, text);
    q.run();
}

void RunStore::add_tag(int64_t id, const std::string& tag) {
    info(id);
    Statement q(*db_, "INSERT OR IGNORE INTO run_tags (run_id, tag) VALUES (?1, ?2)");
    q.bind(1, id).bind(2, tag);
    q.run();
}

void RunStore::set_notes(int64_t id, const std::string& text) {
    info(id);
    Statement q(*db_, "UPDATE runs SET notes = ?2 WHERE id = ?1");
    q.bind(1, id).bind(2, text);
    q.run();
}

void RunStore::set_baseline(int64_t id) {
    const std::string name = info(id).name;
    Transaction tx(*db_);
    Statement clear(*db_,
                    "DELETE FROM run_tags WHERE tag = 'baseline' AND run_id IN "
                    "(SELECT id FROM runs WHERE name = ?1)");
    clear.bind(1, name);
    clear.run();
    Statement add(*db_, "INSERT INTO run_tags (run_id, tag) VALUES (?1, 'baseline')");
    add.bind(1, id);
    add.run();
    tx.commit();
}

std::optional<int64_t> RunStore::baseline_of(const std::string& name) {
    Statement q(*db_,
                "SELECT runs.id FROM runs JOIN run_tags ON run_tags.run_id = runs.id "
                "WHERE run_tags.tag = 'baseline' AND runs.name = ?1 ORDER BY runs.id DESC");
    q.bind(1, name);
    std::optional<int64_t> id;
    if (q.step()) id = q.integer(0);
    q.run();
    return id;
}

void RunStore::remove_tag(int64_t id, const std::string& tag) {
    info(id);
    Statement q(*db_, "DELETE FROM run_tags WHERE run_id = ?1 AND tag = ?2");
    q.bind(1, id).bind(2, tag);
    q.run();
}

}  // namespace perflab
