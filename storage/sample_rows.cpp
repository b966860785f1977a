// SPDX-License-Identifier: MIT
#include "sample_rows.h"

#include <nlohmann/json.hpp>
#include <optional>

#include "agent_figures.h"
#include "agent_ticks.h"
#include "model/figures.h"
#include "model/node_ticks.h"
#include "model/summary_report.h"

namespace perflab {

namespace {

std::string errors_json(const std::map<std::string, uint64_t>& errors) {
    return nlohmann::json(errors).dump();
}

std::string status_json(const std::map<int, uint64_t>& codes) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [code, n] : codes)
        j[std::to_string(code)] = n;
    return j.dump();
}

// Most ticks have no errors and no status codes: "{}" needs no JSON parser.
void parse_errors(const std::string& text, std::map<std::string, uint64_t>& out) {
    if (text == "{}") return;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_object())
        for (const auto& [k, v] : j.items())
            if (v.is_number_unsigned()) out[k] = v.get<uint64_t>();
}

void parse_status(const std::string& text, std::map<int, uint64_t>& out) {
    if (text == "{}") return;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_object())
        for (const auto& [k, v] : j.items())
            if (v.is_number_unsigned()) out[std::atoi(k.c_str())] = v.get<uint64_t>();
}

int64_t i64(uint64_t v) {
    return static_cast<int64_t>(v);
}

// What read_phase_sums needs of a phase: its counts per op.
std::string phase_ops_json(const PhaseTotals& p) {
    nlohmann::json ops = nlohmann::json::object();
    for (const auto& [name, op] : p.totals.ops) {
        ops[name] = {{"count", op.count}, {"errors", op.errors}};
        if (op.check_failures) {
            ops[name]["check_failures"] = op.check_failures;
            ops[name]["checks_failed"] = op.checks_failed;
        }
    }
    return nlohmann::json{{"ops", ops}}.dump();
}

// A tick's cluster nodes as stored; damaged ones are named, never skipped.
std::map<std::string, NodeTick> stored_nodes(Connection& db, int64_t run, int64_t seq,
                                             const std::string& text) {
    auto nodes = node_ticks_from_json(nlohmann::json::parse(text, nullptr, false));
    if (!nodes)
        throw StoreError("database " + db.path() + ": run " + std::to_string(run) + ", tick " +
                         std::to_string(seq) + ": damaged cluster nodes' figures");
    return std::move(*nodes);
}

// NULL for an op without failed checks: every cache op and most HTTP ones.
void bind_checks(Statement& q, int index, const OpSample& op) {
    if (op.checks_failed.empty())
        q.bind_null(index);
    else
        q.bind(index, nlohmann::json(op.checks_failed).dump());
}

}  // namespace

RunRows::RunRows(Connection& db)
    : db_(db),
      sample_(db,
              "INSERT INTO samples (run_id, seq, t_ms, interval_ms, phase, planned_rate, "
              "connections, hits, misses, bytes_in, bytes_out, sent, late, errors_json, "
              "status_json, dropped, first_send_us, last_send_us, last_reply_us, drain, "
              "agents_json, moved, asked, bytes_in_known, bytes_out_known, nodes_json) VALUES "
              "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, "
              "?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26)"),
      op_(db,
          "INSERT INTO sample_ops (run_id, seq, op, count, errors, histogram, service, "
          "check_failures, checks_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"),
      transaction_(db,
                   "INSERT INTO sample_transactions (run_id, seq, label, count, errors, "
                   "histogram) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"),
      event_(db, "INSERT INTO events (run_id, t_ms, kind, text) VALUES (?1, ?2, ?3, ?4)"),
      phase_(db,
             "INSERT OR REPLACE INTO phases (run_id, phase, duration_s, summary_json) "
             "VALUES (?1, ?2, ?3, ?4)"),
      histogram_(db,
                 "INSERT OR REPLACE INTO final_histograms (run_id, phase, op, histogram, service) "
                 "VALUES (?1, ?2, ?3, ?4, ?5)") {}

namespace {

// NULL for a histogram with nothing in it: a closed-model op's service time.
void bind_service(Statement& q, int index, const Histogram& h) {
    if (h.empty())
        q.bind_null(index);
    else
        q.bind_blob(index, h.encode());
}

}  // namespace

void RunRows::sample(int64_t run, int64_t seq, const IntervalSample& s) {
    sample_.bind(1, run).bind(2, seq).bind(3, s.t_ms).bind(4, s.interval_ms);
    sample_.bind(5, int64_t{s.phase}).bind(6, s.planned_rate).bind(7, int64_t{s.connections});
    sample_.bind(8, i64(s.hits)).bind(9, i64(s.misses)).bind(10, i64(s.bytes_in));
    sample_.bind(11, i64(s.bytes_out)).bind(12, i64(s.sent)).bind(13, i64(s.late));
    sample_.bind(14, errors_json(s.errors)).bind(15, status_json(s.status_codes));
    sample_.bind(16, i64(s.dropped)).bind(17, s.first_send_us).bind(18, s.last_send_us);
    sample_.bind(19, s.last_reply_us).bind(20, int64_t{s.drain});
    if (s.agents.empty())
        sample_.bind_null(21);
    else
        sample_.bind(21, agent_ticks_json(s.agents).dump());
    sample_.bind(22, i64(s.moved)).bind(23, i64(s.asked));
    sample_.bind(24, int64_t{s.bytes_in_known}).bind(25, int64_t{s.bytes_out_known});
    if (s.nodes.empty())
        sample_.bind_null(26);
    else
        sample_.bind(26, node_ticks_json(s.nodes).dump());
    sample_.run();
    for (const auto& [name, op] : s.ops) {
        op_.bind(1, run).bind(2, seq).bind(3, name).bind(4, i64(op.count));
        op_.bind(5, i64(op.errors)).bind_blob(6, op.latency.encode());
        bind_service(op_, 7, op.service);
        op_.bind(8, i64(op.check_failures));
        bind_checks(op_, 9, op);
        op_.run();
    }
    for (const auto& [label, t] : s.transactions) {
        transaction_.bind(1, run).bind(2, seq).bind(3, label).bind(4, i64(t.count));
        transaction_.bind(5, i64(t.errors)).bind_blob(6, t.latency.encode());
        transaction_.run();
    }
}

void RunRows::event(int64_t run, const RunEvent& e) {
    event_.bind(1, run).bind(2, e.t_ms).bind(3, e.kind).bind(4, e.text);
    event_.run();
}

void RunRows::phase(int64_t run, const PhaseTotals& p) {
    phase_.bind(1, run).bind(2, int64_t{p.phase}).bind(3, p.duration_s);
    phase_.bind(4, phase_ops_json(p));
    phase_.run();
}

void RunRows::finish(int64_t run, const RunSummary& summary, int64_t ended_at_ms) {
    const auto histograms = [&](const PhaseTotals& p, int64_t phase) {
        for (const auto& [name, op] : p.totals.ops) {
            histogram_.bind(1, run).bind(2, phase).bind(3, name);
            histogram_.bind_blob(4, op.latency.encode());
            bind_service(histogram_, 5, op.service);
            histogram_.run();
        }
    };
    histograms(summary.overall, -1);
    for (const auto& p : summary.phases) {
        histograms(p, p.phase);
        phase(run, p);
    }
    Statement update(
        db_,
        "UPDATE runs SET status = ?2, error = ?3, ended_at_ms = ?4, summary_json = ?5, "
        "prefill_sets = ?6, slo_json = ?7, search_json = ?8, writer_pid = NULL WHERE id = ?1");
    update.bind(1, run).bind(2, to_string(summary.status)).bind(3, summary.error);
    update.bind(4, ended_at_ms).bind(5, summary_json(summary).dump());
    update.bind(6, i64(summary.prefill_sets));
    if (summary.slo)
        update.bind(7, to_json(*summary.slo).dump());
    else
        update.bind_null(7);
    if (summary.search)
        update.bind(8, to_json(*summary.search).dump());
    else
        update.bind_null(8);
    update.run();
    write_agents(db_, run, summary.agents);
    update_key_figures(db_, run, key_figures(summary));
}

void update_key_figures(Connection& db, int64_t run, const KeyFigures& k) {
    Statement update(db,
                     "UPDATE runs SET duration_s = ?2, ops = ?3, errors = ?4, rate = ?5, "
                     "throughput = ?6, success = ?7, error_rate = ?8, p99_us = ?9, hit_rate = ?10, "
                     "figures_version = ?11 WHERE id = ?1");
    update.bind(1, run).bind(2, k.duration_s).bind(3, i64(k.ops)).bind(4, i64(k.errors));
    update.bind(5, k.rate).bind(6, k.throughput).bind(7, k.success).bind(8, k.error_rate);
    update.bind(9, k.p99_us);
    if (k.hit_rate >= 0)
        update.bind(10, k.hit_rate);
    else
        update.bind_null(10);
    update.bind(11, int64_t{kFiguresVersion});
    update.run();
}

namespace {

// Takes the tick out of its slot, so its histograms go back to the pool right after f.
void hand_over(IntervalSample& slot, const std::function<void(IntervalSample&&)>& f) {
    IntervalSample tick = std::move(slot);
    f(std::move(tick));
}

// Matches rows of a per-tick table, read in seq order, to the ticks read before: each row's
// tick, and every tick before it as one whose rows are all read.
class TickWalk {
  public:
    explicit TickWalk(const std::vector<int64_t>& seqs) : seqs_(seqs) {}

    // The index of seq's tick, or nullopt for a row of a tick outside the window.
    template <class Passed>
    std::optional<size_t> find(int64_t seq, Passed&& passed) {
        for (; at_ < seqs_.size() && seqs_[at_] < seq; ++at_)
            passed(at_);
        if (at_ == seqs_.size() || seqs_[at_] != seq) return std::nullopt;
        return at_;
    }
    template <class Passed>
    void finish(Passed&& passed) {
        for (; at_ < seqs_.size(); ++at_)
            passed(at_);
    }

  private:
    const std::vector<int64_t>& seqs_;
    size_t at_ = 0;
};

// The transactions of the ticks from first to last seq (few: only imported runs have them).
void read_transactions(Connection& db, int64_t run, const std::vector<int64_t>& seqs,
                       std::vector<IntervalSample>& ticks) {
    Statement q(db,
                "SELECT seq, label, count, errors, histogram FROM sample_transactions "
                "WHERE run_id = ?1 AND seq >= ?2 AND seq <= ?3 ORDER BY seq");
    q.bind(1, run).bind(2, seqs.front()).bind(3, seqs.back());
    TickWalk walk(seqs);
    while (q.step()) {
        const int64_t seq = q.integer(0);
        const auto at = walk.find(seq, [](size_t) {});
        if (!at) continue;
        auto latency = Histogram::decode(q.blob(4));
        if (!latency)
            throw StoreError("database " + db.path() + ": run " + std::to_string(run) + ", tick " +
                             std::to_string(seq) + ": damaged transaction histogram");
        OpSample& t = ticks[*at].transactions[q.text(1)];
        t.count = uint64_t(q.integer(2));
        t.errors = uint64_t(q.integer(3));
        t.latency = std::move(*latency);
    }
}

}  // namespace

void for_each_sample(Connection& db, int64_t run, int64_t from_ms, int64_t to_ms,
                     const std::function<void(IntervalSample&&)>& f) {
    Statement q(db,
                "SELECT seq, t_ms, interval_ms, phase, planned_rate, connections, hits, misses, "
                "bytes_in, bytes_out, sent, late, errors_json, status_json, dropped, "
                "first_send_us, last_send_us, last_reply_us, drain, agents_json, moved, asked, "
                "bytes_in_known, bytes_out_known, nodes_json FROM samples "
                "WHERE run_id = ?1 AND (?2 < 0 OR t_ms - interval_ms / 2 > ?2) AND "
                "t_ms - interval_ms / 2 <= ?3 ORDER BY seq");
    q.bind(1, run).bind(2, from_ms).bind(3, to_ms);
    // The counters of every tick first (small rows), then the ops of each tick in seq
    // order: a tick is handed over as soon as its ops are read, so only one tick's
    // histograms are alive at a time.
    std::vector<IntervalSample> ticks;
    std::vector<int64_t> seqs;
    while (q.step()) {
        IntervalSample s;
        seqs.push_back(q.integer(0));
        s.t_ms = q.integer(1);
        s.interval_ms = q.integer(2);
        s.phase = int(q.integer(3));
        s.planned_rate = q.real(4);
        s.connections = int(q.integer(5));
        s.hits = uint64_t(q.integer(6));
        s.misses = uint64_t(q.integer(7));
        s.bytes_in = uint64_t(q.integer(8));
        s.bytes_out = uint64_t(q.integer(9));
        s.sent = uint64_t(q.integer(10));
        s.late = uint64_t(q.integer(11));
        parse_errors(q.text(12), s.errors);
        parse_status(q.text(13), s.status_codes);
        s.dropped = uint64_t(q.integer(14));
        s.first_send_us = q.integer(15);
        s.last_send_us = q.integer(16);
        s.last_reply_us = q.integer(17);
        s.drain = q.integer(18) != 0;
        if (!q.is_null(19)) {
            auto agents = agent_ticks_from_json(q.text(19));
            if (!agents)
                throw StoreError("database " + db.path() + ": run " + std::to_string(run) +
                                 ", tick " + std::to_string(seqs.back()) +
                                 ": damaged agents' figures");
            s.agents = std::move(*agents);
        }
        s.moved = uint64_t(q.integer(20));
        s.asked = uint64_t(q.integer(21));
        s.bytes_in_known = q.integer(22) != 0;
        s.bytes_out_known = q.integer(23) != 0;
        if (!q.is_null(24)) s.nodes = stored_nodes(db, run, seqs.back(), q.text(24));
        ticks.push_back(std::move(s));
    }
    if (ticks.empty()) return;
    read_transactions(db, run, seqs, ticks);
    Statement ops(db,
                  "SELECT seq, op, count, errors, histogram, service, check_failures, "
                  "checks_json FROM sample_ops "
                  "WHERE run_id = ?1 AND seq >= ?2 AND seq <= ?3 ORDER BY seq");
    ops.bind(1, run).bind(2, seqs.front()).bind(3, seqs.back());
    const auto passed = [&](size_t at) { hand_over(ticks[at], f); };
    TickWalk walk(seqs);
    while (ops.step()) {
        const int64_t seq = ops.integer(0);
        const auto at = walk.find(seq, passed);
        if (!at) continue;
        OpSample& op = ticks[*at].ops[ops.text(1)];
        op.count = uint64_t(ops.integer(2));
        op.errors = uint64_t(ops.integer(3));
        auto latency = Histogram::decode(ops.blob(4));
        auto service = ops.is_null(5) ? Histogram() : Histogram::decode(ops.blob(5));
        if (!latency || !service)
            throw StoreError("database " + db.path() + ": run " + std::to_string(run) + ", tick " +
                             std::to_string(seq) + ": damaged histogram");
        op.latency = std::move(*latency);
        op.service = std::move(*service);
        op.check_failures = uint64_t(ops.integer(6));
        if (!ops.is_null(7)) parse_errors(ops.text(7), op.checks_failed);
    }
    walk.finish(passed);
}

std::map<std::string, OpSample> read_transaction_totals(Connection& db, int64_t run,
                                                        int64_t from_ms, int64_t to_ms) {
    Statement q(db,
                "SELECT t.label, t.count, t.errors, t.histogram FROM sample_transactions t JOIN "
                "samples s ON s.run_id = t.run_id AND s.seq = t.seq WHERE t.run_id = ?1 AND "
                "(?2 < 0 OR s.t_ms - s.interval_ms / 2 > ?2) AND s.t_ms - s.interval_ms / 2 <= ?3");
    q.bind(1, run).bind(2, from_ms).bind(3, to_ms);
    std::map<std::string, OpSample> out;
    while (q.step()) {
        auto latency = Histogram::decode(q.blob(3));
        if (!latency)
            throw StoreError("database " + db.path() + ": run " + std::to_string(run) +
                             ": damaged transaction histogram");
        OpSample& t = out[q.text(0)];
        t.count += uint64_t(q.integer(1));
        t.errors += uint64_t(q.integer(2));
        t.latency.merge(*latency);
    }
    return out;
}

std::vector<IntervalSample> read_samples(Connection& db, int64_t run, int64_t from_ms,
                                         int64_t to_ms) {
    std::vector<IntervalSample> out;
    for_each_sample(db, run, from_ms, to_ms,
                    [&](IntervalSample&& s) { out.push_back(std::move(s)); });
    return out;
}

namespace {

// The op counts of each phase from the summary stored when the phase ended: a few small
// rows, where summing the ticks' ops would read every tick's histograms too. False (and
// nothing changed) unless every phase has its summary.
bool stored_phase_ops(Connection& db, int64_t run, std::vector<IntervalSample>& phases,
                      const std::map<int, size_t>& at) {
    Statement q(db, "SELECT phase, summary_json FROM phases WHERE run_id = ?1");
    q.bind(1, run);
    std::map<int, std::map<std::string, OpSample>> found;
    while (q.step()) {
        const int phase = int(q.integer(0));
        if (!at.count(phase)) continue;
        const auto j = nlohmann::json::parse(q.text(1), nullptr, false);
        if (!j.is_object() || !j.contains("ops") || !j["ops"].is_object()) return false;
        auto& ops = found[phase];
        for (const auto& [name, op] : j["ops"].items()) {
            ops[name].count = op.value("count", uint64_t{0});
            ops[name].errors = op.value("errors", uint64_t{0});
            ops[name].check_failures = op.value("check_failures", uint64_t{0});
            if (const auto c = op.find("checks_failed"); c != op.end())
                parse_errors(c->dump(), ops[name].checks_failed);
        }
    }
    if (found.size() != at.size()) return false;
    for (auto& [phase, ops] : found)
        phases[at.at(phase)].ops = std::move(ops);
    return true;
}

}  // namespace

std::vector<IntervalSample> read_phase_sums(Connection& db, int64_t run) {
    Statement q(db,
                "SELECT phase, max(t_ms), max(t_ms) - min(t_ms - interval_ms), sum(hits), "
                "sum(misses), sum(bytes_in), sum(bytes_out), sum(sent), sum(late), sum(dropped), "
                "min(CASE WHEN sent > 0 THEN first_send_us END), max(last_send_us), "
                "max(last_reply_us), sum(moved), sum(asked), min(bytes_in_known), "
                "min(bytes_out_known) FROM samples WHERE run_id = ?1 "
                "GROUP BY phase ORDER BY phase");
    q.bind(1, run);
    std::vector<IntervalSample> out;
    std::map<int, size_t> at;
    while (q.step()) {
        IntervalSample s;
        s.phase = int(q.integer(0));
        s.t_ms = q.integer(1);
        s.interval_ms = q.integer(2);
        s.hits = uint64_t(q.integer(3));
        s.misses = uint64_t(q.integer(4));
        s.bytes_in = uint64_t(q.integer(5));
        s.bytes_out = uint64_t(q.integer(6));
        s.sent = uint64_t(q.integer(7));
        s.late = uint64_t(q.integer(8));
        s.dropped = uint64_t(q.integer(9));
        s.first_send_us = q.integer(10);
        s.last_send_us = q.integer(11);
        s.last_reply_us = q.integer(12);
        s.moved = uint64_t(q.integer(13));
        s.asked = uint64_t(q.integer(14));
        s.bytes_in_known = q.integer(15) != 0;
        s.bytes_out_known = q.integer(16) != 0;
        at[s.phase] = out.size();
        out.push_back(std::move(s));
    }
    Statement maps(db,
                   "SELECT phase, errors_json, status_json FROM samples WHERE run_id = ?1 AND "
                   "(errors_json <> '{}' OR status_json <> '{}')");
    maps.bind(1, run);
    while (maps.step()) {
        auto& s = out[at[int(maps.integer(0))]];
        std::map<std::string, uint64_t> errors;
        std::map<int, uint64_t> codes;
        parse_errors(maps.text(1), errors);
        parse_status(maps.text(2), codes);
        for (const auto& [k, n] : errors)
            s.errors[k] += n;
        for (const auto& [k, n] : codes)
            s.status_codes[k] += n;
    }
    Statement nodes(db,
                    "SELECT phase, seq, nodes_json FROM samples WHERE run_id = ?1 AND "
                    "nodes_json IS NOT NULL");
    nodes.bind(1, run);
    while (nodes.step())
        for (const auto& [name, tick] : stored_nodes(db, run, nodes.integer(1), nodes.text(2)))
            out[at[int(nodes.integer(0))]].nodes[name].merge(tick);
    if (stored_phase_ops(db, run, out, at)) return out;
    Statement ops(db,
                  "SELECT samples.phase, sample_ops.op, sum(sample_ops.count), "
                  "sum(sample_ops.errors), sum(sample_ops.check_failures) FROM sample_ops JOIN "
                  "samples ON samples.run_id = "
                  "sample_ops.run_id AND samples.seq = sample_ops.seq WHERE sample_ops.run_id = ?1 "
                  "GROUP BY samples.phase, sample_ops.op");
    ops.bind(1, run);
    while (ops.step()) {
        OpSample& op = out[at[int(ops.integer(0))]].ops[ops.text(1)];
        op.count = uint64_t(ops.integer(2));
        op.errors = uint64_t(ops.integer(3));
        op.check_failures = uint64_t(ops.integer(4));
    }
    return out;
}

KeyFigures key_figures(const RunSummary& summary) {
    const Figures f = figures(summary.kind, summary.overall);
    KeyFigures k;
    k.duration_s = f.duration_s;
    k.ops = f.requests;
    k.errors = f.errors;
    k.rate = f.rate;
    k.throughput = f.throughput;
    k.success = f.success;
    k.error_rate = f.error_rate;
    k.p99_us = f.latency.percentile(99);
    k.hit_rate = f.hit_rate.value_or(-1);
    return k;
}

}  // namespace perflab
