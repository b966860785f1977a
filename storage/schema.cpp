// SPDX-License-Identifier: MIT
#include "schema.h"

#include <iterator>
#include <string>

#include "database.h"

namespace perflab {

namespace {

// Version 1. Counters are stored as integers; histograms as Histogram::encode() blobs; flat
// or open-ended structures (spec, errors by kind, probe values, profiles) as JSON text.
constexpr const char* kVersion1 = R"sql(
CREATE TABLE hosts (
    id INTEGER PRIMARY KEY,
    identity TEXT NOT NULL UNIQUE,
    hostname TEXT NOT NULL,
    profile_json TEXT NOT NULL
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    spec_json TEXT NOT NULL,
    notes TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK (status IN
        ('running', 'completed', 'stopped', 'failed', 'interrupted')),
    error TEXT NOT NULL DEFAULT '',
    started_at_ms INTEGER NOT NULL,
    ended_at_ms INTEGER,
    writer_pid INTEGER,
    writer_start INTEGER,
    summary_json TEXT,
    prefill_sets INTEGER NOT NULL DEFAULT 0,
    duration_s REAL NOT NULL DEFAULT 0,
    ops INTEGER NOT NULL DEFAULT 0,
    errors INTEGER NOT NULL DEFAULT 0,
    throughput REAL NOT NULL DEFAULT 0,
    p99_us INTEGER NOT NULL DEFAULT 0,
    hit_rate REAL,
    success REAL
);
CREATE INDEX runs_started ON runs (started_at_ms);
CREATE TABLE run_tags (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (run_id, tag)
) WITHOUT ROWID;
CREATE TABLE run_hosts (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    host_id INTEGER NOT NULL REFERENCES hosts (id),
    role TEXT NOT NULL,
    PRIMARY KEY (run_id, host_id, role)
) WITHOUT ROWID;
CREATE TABLE phases (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    phase INTEGER NOT NULL,
    duration_s REAL NOT NULL,
    summary_json TEXT NOT NULL,
    PRIMARY KEY (run_id, phase)
) WITHOUT ROWID;
CREATE TABLE samples (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    t_ms INTEGER NOT NULL,
    interval_ms INTEGER NOT NULL,
    phase INTEGER NOT NULL,
    planned_rate REAL NOT NULL,
    connections INTEGER NOT NULL,
    hits INTEGER NOT NULL,
    misses INTEGER NOT NULL,
    bytes_in INTEGER NOT NULL,
    bytes_out INTEGER NOT NULL,
    sent INTEGER NOT NULL,
    late INTEGER NOT NULL,
    errors_json TEXT NOT NULL,
    status_json TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;
CREATE TABLE sample_ops (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    op TEXT NOT NULL,
    count INTEGER NOT NULL,
    errors INTEGER NOT NULL,
    histogram BLOB NOT NULL,
    PRIMARY KEY (run_id, seq, op)
) WITHOUT ROWID;
CREATE TABLE final_histograms (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    phase INTEGER NOT NULL,
    op TEXT NOT NULL,
    histogram BLOB NOT NULL,
    PRIMARY KEY (run_id, phase, op)
) WITHOUT ROWID;
CREATE TABLE events (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    t_ms INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX events_run ON events (run_id, t_ms);
CREATE TABLE probe_samples (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    t_ms INTEGER NOT NULL,
    source TEXT NOT NULL,
    kind TEXT NOT NULL,
    values_json TEXT NOT NULL,
    gap INTEGER NOT NULL
);
CREATE INDEX probe_samples_run ON probe_samples (run_id, t_ms);
)sql";

// Version 2: the SSH hosts the desktop offers for probing. Never a password or passphrase.
constexpr const char* kVersion2 = R"sql(
CREATE TABLE saved_hosts (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    target TEXT NOT NULL,
    key_file TEXT NOT NULL DEFAULT '',
    per_core INTEGER NOT NULL DEFAULT 0 CHECK (per_core IN (0, 1)),
    notes TEXT NOT NULL DEFAULT ''
);
)sql";

// Version 3: what a tick says about the edges of a run. `dropped`: ops due that were never
// sent; the send and reply times (µs since the run's start) give vegeta's attack and wait.
constexpr const char* kVersion3 = R"sql(
ALTER TABLE samples ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;
ALTER TABLE samples ADD COLUMN first_send_us INTEGER NOT NULL DEFAULT 0;
ALTER TABLE samples ADD COLUMN last_send_us INTEGER NOT NULL DEFAULT 0;
ALTER TABLE samples ADD COLUMN last_reply_us INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 4: the key figures every output shares (model/figures.h): `rate` (sent per second)
// and `error_rate` beside `throughput` (successful per second) and `success`, and the
// version of their definitions, so runs stored under an older one are computed again.
constexpr const char* kVersion4 = R"sql(
ALTER TABLE runs ADD COLUMN rate REAL NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN error_rate REAL NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN figures_version INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 5: a run's SLO verdict (NULL: its spec had no slo).
constexpr const char* kVersion5 = R"sql(
ALTER TABLE runs ADD COLUMN slo_json TEXT;
)sql";

// Version 6: what a saturation search found (NULL: its spec had no search).
constexpr const char* kVersion6 = R"sql(
ALTER TABLE runs ADD COLUMN search_json TEXT;
)sql";

// Version 7: an imported run's file, by its SHA-256 (NULL: not imported), and the status
// `imported`. SQLite cannot alter a CHECK constraint; widening one is a change of the stored
// schema text that the tables' contents need no change for (sqlite.org/lang_altertable.html,
// "other kinds of table schema changes"); migrate() then bumps schema_version.
constexpr const char* kVersion7 = R"sql(
ALTER TABLE runs ADD COLUMN source_sha256 TEXT;
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, '''interrupted'')', '''interrupted'', ''imported'')')
    WHERE type = 'table' AND name = 'runs';
PRAGMA writable_schema = OFF;
)sql";

// Version 8: a run whose ticks hold counts but no latency histograms (1), as another tool's
// summary imported it: its whole-run figures stand, a window of it cannot be re-analysed.
constexpr const char* kVersion8 = R"sql(
ALTER TABLE runs ADD COLUMN summary_only INTEGER NOT NULL DEFAULT 0 CHECK (summary_only IN (0, 1));
)sql";

// Version 9: open-model service time (from the actual send) beside the latency (from the
// intended send), per tick and op and in the final histograms; NULL when not measured.
constexpr const char* kVersion9 = R"sql(
ALTER TABLE sample_ops ADD COLUMN service BLOB;
ALTER TABLE final_histograms ADD COLUMN service BLOB;
)sql";

// Version 10: HTTP response checks per tick and op: the requests that failed one or more, and
// the failures per check as {"body_contains": n} (NULL when none failed).
constexpr const char* kVersion10 = R"sql(
ALTER TABLE sample_ops ADD COLUMN check_failures INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sample_ops ADD COLUMN checks_json TEXT;
)sql";

// Version 11: each agent's share of a run that agents sent: its host, its clock against the
// controller's, and its figures (counts and histograms per op, as `show --json` gives them).
constexpr const char* kVersion11 = R"sql(
CREATE TABLE run_agents (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    host TEXT NOT NULL,
    lost INTEGER NOT NULL CHECK (lost IN (0, 1)),
    clock_offset_ns INTEGER NOT NULL,
    clock_uncertainty_ns INTEGER NOT NULL,
    figures_json TEXT NOT NULL,
    PRIMARY KEY (run_id, position)
) WITHOUT ROWID;
)sql";

// Version 12: one run per imported file, whoever imports it at the same time. A file two
// imports raced to store before keeps its first run; the later ones keep their figures.
constexpr const char* kVersion12 = R"sql(
UPDATE runs SET source_sha256 = NULL
    WHERE source_sha256 IS NOT NULL
      AND id NOT IN (SELECT MIN(id) FROM runs WHERE source_sha256 IS NOT NULL
                     GROUP BY source_sha256);
CREATE UNIQUE INDEX runs_source ON runs (source_sha256) WHERE source_sha256 IS NOT NULL;
)sql";

// Version 13: a phase's drain sample is marked (IntervalSample::drain); runs stored before
// keep 0, and the charts tell their drains by their phase.
constexpr const char* kVersion13 = R"sql(
ALTER TABLE samples ADD COLUMN drain INTEGER NOT NULL DEFAULT 0 CHECK (drain IN (0, 1));
)sql";

// Version 14: run ids are never used again after a delete (a bookmarked or scripted id would
// name another run): runs' id becomes AUTOINCREMENT, whose high-water mark SQLite keeps in
// sqlite_sequence. The id column's storage is the same with or without it, so as in version 7
// only the stored schema text changes; sqlite_sequence, which SQLite makes only as it creates
// an AUTOINCREMENT table, is made by creating and dropping one, then given the highest id
// stored. A deleted run above the highest id left may still be reused once, by the first run
// stored after the upgrade. Both edits leave a database already at this step unchanged.
constexpr const char* kVersion14 = R"sql(
CREATE TABLE perflab_make_sequence (id INTEGER PRIMARY KEY AUTOINCREMENT);
DROP TABLE perflab_make_sequence;
INSERT INTO sqlite_sequence (name, seq)
    SELECT 'runs', COALESCE(MAX(id), 0) FROM runs
    WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'runs');
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
    SET sql = replace(sql, 'id INTEGER PRIMARY KEY,', 'id INTEGER PRIMARY KEY AUTOINCREMENT,')
    WHERE type = 'table' AND name = 'runs';
PRAGMA writable_schema = OFF;
)sql";

// Version 15: each agent's part of a tick (agent_ticks.h), so a run's view shows each agent's
// throughput and lateness over time; NULL for a run on one machine and for runs stored before.
constexpr const char* kVersion15 = R"sql(
ALTER TABLE samples ADD COLUMN agents_json TEXT;
)sql";

// Version 16: another tool's transactions per tick and label (JMeter's Transaction
// Controller), shaped as sample_ops but never counted as requests; none for runs stored before.
constexpr const char* kVersion16 = R"sql(
CREATE TABLE sample_transactions (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    label TEXT NOT NULL,
    count INTEGER NOT NULL,
    errors INTEGER NOT NULL,
    histogram BLOB NOT NULL,
    PRIMARY KEY (run_id, seq, label)
) WITHOUT ROWID;
)sql";

// Version 17: a Redis Cluster run's redirections per tick (IntervalSample::moved and asked),
// the replies that sent an op on to another node; 0 for runs stored before, which had none
// stored.
constexpr const char* kVersion17 = R"sql(
ALTER TABLE samples ADD COLUMN moved INTEGER NOT NULL DEFAULT 0;
ALTER TABLE samples ADD COLUMN asked INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 18: whether a tick's bytes were counted (IntervalSample::bytes_in_known and
// bytes_out_known). Imports stored 0 where the file had none: an imported run with no byte
// in a direction over all its ticks is taken as one that did not count them (a memtier run
// of misses only, which counted 0 value bytes in, is the one it takes wrongly).
constexpr const char* kVersion18 = R"sql(
ALTER TABLE samples ADD COLUMN bytes_in_known INTEGER NOT NULL DEFAULT 1
    CHECK (bytes_in_known IN (0, 1));
ALTER TABLE samples ADD COLUMN bytes_out_known INTEGER NOT NULL DEFAULT 1
    CHECK (bytes_out_known IN (0, 1));
UPDATE samples SET bytes_in_known = 0 WHERE run_id IN (
    SELECT s.run_id FROM samples s JOIN runs r ON r.id = s.run_id
    WHERE r.status = 'imported' GROUP BY s.run_id HAVING sum(s.bytes_in) = 0);
UPDATE samples SET bytes_out_known = 0 WHERE run_id IN (
    SELECT s.run_id FROM samples s JOIN runs r ON r.id = s.run_id
    WHERE r.status = 'imported' GROUP BY s.run_id HAVING sum(s.bytes_out) = 0);
)sql";

// Version 19: a Redis Cluster run's nodes per tick (IntervalSample::nodes, node_ticks.h): what
// each node answered, as its own INFO counts it; NULL for every other run and runs before.
constexpr const char* kVersion19 = R"sql(
ALTER TABLE samples ADD COLUMN nodes_json TEXT;
)sql";

constexpr const char* kSteps[] = {kVersion1,  kVersion2,  kVersion3,  kVersion4,  kVersion5,
                                  kVersion6,  kVersion7,  kVersion8,  kVersion9,  kVersion10,
                                  kVersion11, kVersion12, kVersion13, kVersion14, kVersion15,
                                  kVersion16, kVersion17, kVersion18, kVersion19};
static_assert(std::size(kSteps) == kSchemaVersion);

}  // namespace

int pragma_int(Connection& db, const char* pragma) {
    Statement q(db, (std::string("PRAGMA ") + pragma).c_str());
    const int value = q.step() ? int(q.integer(0)) : 0;
    q.run();
    return value;
}

void migrate(Connection& db) {
    if (pragma_int(db, "user_version") >= kSchemaVersion) return;
    Transaction tx(db);
    const int from = pragma_int(db, "user_version");
    if (from >= kSchemaVersion) return;
    // After each step, connections (this one too) read the schema again, whose text the step
    // may have edited: a later step's ALTER TABLE rewrites that text at the offsets it parsed.
    for (int v = from; v < kSchemaVersion; ++v) {
        db.exec(kSteps[v]);
        const int schema = pragma_int(db, "schema_version");
        db.exec(("PRAGMA schema_version = " + std::to_string(schema + 1)).c_str());
    }
    db.exec(("PRAGMA application_id = " + std::to_string(kApplicationId)).c_str());
    db.exec(("PRAGMA user_version = " + std::to_string(kSchemaVersion)).c_str());
    tx.commit();
}

}  // namespace perflab
