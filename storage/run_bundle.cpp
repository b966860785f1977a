// SPDX-License-Identifier: MIT
#include "run_bundle.h"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "database.h"
#include "import_record.h"
#include "run_store.h"
#include "sha256.h"

namespace perflab {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMagic = "PERFLAB-BUNDLE 1\n";
// A database that inflates past this is no bundle PerfLab wrote a run into memory for.
constexpr uint64_t kMaxBytes = uint64_t{1} << 34;
constexpr uint64_t kDeflateMaxRatio = 1032;

// A directory of its own under $TMPDIR for the bundle's database, removed with what is in it.
class ScratchDir {
  public:
    ScratchDir() {
        std::string pattern = (fs::temp_directory_path() / "perflab-bundle-XXXXXX").string();
        if (!mkdtemp(pattern.data()))
            throw StoreError("cannot make a scratch directory in " +
                             fs::temp_directory_path().string());
        path_ = pattern;
    }
    ~ScratchDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    std::string file(const char* name) const { return (path_ / name).string(); }

  private:
    fs::path path_;
};

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return std::move(bytes).str();
}

std::string quoted(const std::string& name) {
    return "\"" + name + "\"";
}

// The tables that hold a run's rows (a `run_id` column), with their columns, as this build's
// schema has them: a table a later version adds travels without a change here.
struct Table {
    std::string name;
    std::vector<std::string> columns;
    bool has(const char* column) const {
        return std::find(columns.begin(), columns.end(), column) != columns.end();
    }
};

std::vector<std::string> columns_of(Connection& db, const std::string& table) {
    Statement q(db, "SELECT name FROM pragma_table_info(?1) ORDER BY cid");
    q.bind(1, table);
    std::vector<std::string> columns;
    while (q.step())
        columns.push_back(q.text(0));
    return columns;
}

std::vector<Table> run_tables(Connection& db) {
    std::vector<Table> tables;
    Statement q(db,
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name <> 'runs' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY name");
    std::vector<std::string> names;
    while (q.step())
        names.push_back(q.text(0));
    for (auto& name : names) {
        Table t{name, columns_of(db, name)};
        if (t.has("run_id")) tables.push_back(std::move(t));
    }
    return tables;
}

// "a, b, c", each column as `pick` gives it.
template <typename Pick>
std::string column_list(const std::vector<std::string>& columns, Pick pick) {
    std::string list;
    for (const auto& c : columns) {
        const std::string item = pick(c);
        if (item.empty()) continue;
        list += (list.empty() ? "" : ", ") + item;
    }
    return list;
}

std::string plain_columns(const std::vector<std::string>& columns) {
    return column_list(columns, [](const std::string& c) { return quoted(c); });
}

void copy_out(Connection& bundle, int64_t id, const std::vector<Table>& tables) {
    const std::string runs = plain_columns(columns_of(bundle, "runs"));
    Statement run(bundle, ("INSERT INTO main.runs (" + runs + ") SELECT " + runs +
                           " FROM src.runs WHERE id = ?1")
                              .c_str());
    run.bind(1, id).run();
    const std::string hosts = plain_columns(columns_of(bundle, "hosts"));
    Statement host(bundle, ("INSERT OR IGNORE INTO main.hosts (" + hosts + ") SELECT " + hosts +
                            " FROM src.hosts WHERE id IN "
                            "(SELECT host_id FROM src.run_hosts WHERE run_id = ?1)")
                               .c_str());
    host.bind(1, id).run();
    for (const auto& t : tables) {
        const std::string columns = plain_columns(t.columns);
        Statement rows(
            bundle, ("INSERT INTO main." + quoted(t.name) + " (" + columns + ") SELECT " + columns +
                     " FROM src." + quoted(t.name) + " WHERE run_id = ?1")
                        .c_str());
        rows.bind(1, id).run();
    }
}

std::string deflated(const std::string& bytes) {
    uLongf size = compressBound(uLong(bytes.size()));
    std::string out(size, '\0');
    if (compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                  reinterpret_cast<const Bytef*>(bytes.data()), uLong(bytes.size()),
                  Z_BEST_COMPRESSION) != Z_OK)
        throw StoreError("cannot compress the bundle");
    out.resize(size);
    return out;
}

void write_whole(const std::string& path, const std::string& bytes) {
    const std::string staging = path + ".part";
    {
        std::ofstream out(staging, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), std::streamsize(bytes.size()));
        out.close();
        if (!out) {
            std::error_code ec;
            fs::remove(staging, ec);
            throw StoreError("cannot write " + path);
        }
    }
    std::error_code ec;
    fs::rename(staging, path, ec);
    if (ec) {
        fs::remove(staging, ec);
        throw StoreError("cannot write " + path + ": " + ec.message());
    }
}

// The database a bundle holds, its header checked: a bundle that lost or changed a byte is
// refused before anything of it is read.
std::string database_of(const std::string& file) {
    const auto bad = [](const std::string& what) {
        return ImportError("PerfLab bundle", "not whole: " + what);
    };
    if (file.compare(0, kMagic.size(), kMagic) != 0)
        throw bad("it does not begin with \"PERFLAB-BUNDLE 1\"");
    const size_t digest_at = kMagic.size();
    const size_t digest_end = file.find('\n', digest_at);
    if (digest_end == std::string::npos || file.compare(digest_at, 7, "sha256 ") != 0 ||
        digest_end - digest_at != 7 + 64)
        throw bad("its sha256 line is damaged");
    const std::string_view rest = std::string_view(file).substr(digest_end + 1);
    if (sha256_hex(rest) != file.substr(digest_at + 7, 64))
        throw bad("its content does not match its SHA-256 (changed or cut short since written)");
    const size_t size_end = rest.find('\n');
    if (size_end == std::string::npos || rest.compare(0, 6, "bytes ") != 0)
        throw bad("its size line is damaged");
    const uint64_t size =
        std::strtoull(std::string(rest.substr(6, size_end - 6)).c_str(), nullptr, 10);
    const std::string_view body = rest.substr(size_end + 1);
    // Deflate shrinks at most 1032 to 1, so a larger size is a lie to be refused before it
    // is allocated.
    if (size == 0 || size > kMaxBytes || size > uint64_t(body.size()) * kDeflateMaxRatio)
        throw bad("its size line is damaged");
    std::string db(size, '\0');
    uLongf inflated = uLongf(size);
    if (uncompress(reinterpret_cast<Bytef*>(db.data()), &inflated,
                   reinterpret_cast<const Bytef*>(body.data()), uLong(body.size())) != Z_OK ||
        inflated != size)
        throw bad("its database does not inflate to its size");
    return db;
}

struct BundleRun {
    int64_t id = 0;
    std::string name;
    std::string source_sha256;  // empty: not another tool's file
};

// The run of this history the bundle's run `id` is, by content: the same kind, start, spec
// and summary (status, notes and tags may have changed since), or the same imported file.
std::optional<int64_t> same_run(Connection& db, const BundleRun& run) {
    Statement q(db,
                "SELECT m.id FROM main.runs m JOIN bundle.runs b ON b.id = ?1 "
                "WHERE (m.kind = b.kind AND m.started_at_ms = b.started_at_ms "
                "AND m.spec_json = b.spec_json AND m.summary_json IS b.summary_json) "
                "OR (b.source_sha256 IS NOT NULL AND m.source_sha256 = b.source_sha256) "
                "ORDER BY m.id");
    q.bind(1, run.id);
    std::optional<int64_t> found;
    if (q.step()) found = q.integer(0);
    q.run();
    return found;
}

int64_t copy_in(Connection& db, const BundleRun& run, const std::vector<Table>& tables) {
    // A writer's process is one of the bundle's machine: the run here has none, and one
    // exported while it ran is cut where the bundle was written.
    const std::string runs = column_list(columns_of(db, "runs"), [](const std::string& c) {
        return c == "id" ? std::string() : quoted(c);
    });
    const std::string picked = column_list(columns_of(db, "runs"), [](const std::string& c) {
        if (c == "id") return std::string();
        if (c == "writer_pid" || c == "writer_start") return std::string("NULL");
        if (c == "status")
            return std::string("CASE status WHEN 'running' THEN 'interrupted' ELSE status END");
        return quoted(c);
    });
    Statement insert(db, ("INSERT INTO main.runs (" + runs + ") SELECT " + picked +
                          " FROM bundle.runs WHERE id = ?1")
                             .c_str());
    insert.bind(1, run.id).run();
    const int64_t here = db.last_insert_id();

    db.exec("DELETE FROM temp.host_ids");
    Statement hosts(db,
                    "SELECT id, identity, hostname, profile_json FROM bundle.hosts WHERE id IN "
                    "(SELECT host_id FROM bundle.run_hosts WHERE run_id = ?1)");
    hosts.bind(1, run.id);
    Statement find(db, "SELECT id FROM main.hosts WHERE identity = ?1");
    Statement add(db,
                  "INSERT INTO main.hosts (identity, hostname, profile_json) VALUES (?1, ?2, ?3)");
    Statement map(db, "INSERT INTO temp.host_ids (bundle, here) VALUES (?1, ?2)");
    while (hosts.step()) {
        int64_t host = 0;
        find.bind(1, hosts.text(1));
        if (find.step()) {
            host = find.integer(0);
            find.run();
        } else {
            add.bind(1, hosts.text(1)).bind(2, hosts.text(2)).bind(3, hosts.text(3)).run();
            host = db.last_insert_id();
        }
        map.bind(1, hosts.integer(0)).bind(2, host).run();
    }

    for (const auto& t : tables) {
        const std::string columns = plain_columns(t.columns);
        const std::string values = column_list(t.columns, [](const std::string& c) {
            if (c == "run_id") return std::string("?2");
            if (c == "host_id")
                return std::string("(SELECT here FROM temp.host_ids WHERE bundle = host_id)");
            return quoted(c);
        });
        Statement rows(db, ("INSERT INTO main." + quoted(t.name) + " (" + columns + ") SELECT " +
                            values + " FROM bundle." + quoted(t.name) + " WHERE run_id = ?1")
                               .c_str());
        rows.bind(1, run.id).bind(2, here).run();
    }
    return here;
}

void tag(Connection& db, int64_t id, const std::string& tag) {
    Statement q(db, "INSERT OR IGNORE INTO main.run_tags (run_id, tag) VALUES (?1, ?2)");
    q.bind(1, id).bind(2, tag).run();
}

// An imported baseline does not replace the one this history has for its name.
void keep_one_baseline(Connection& db, int64_t id, const std::string& name) {
    Statement q(db,
                "DELETE FROM main.run_tags WHERE run_id = ?1 AND tag = 'baseline' AND EXISTS "
                "(SELECT 1 FROM main.runs r JOIN main.run_tags t ON t.run_id = r.id "
                "WHERE r.name = ?2 AND t.tag = 'baseline' AND r.id <> ?1)");
    q.bind(1, id).bind(2, name).run();
}

}  // namespace

void export_bundle(const std::string& db_path, const std::vector<int64_t>& ids,
                   const std::string& path) {
    if (ids.empty()) throw StoreError("a bundle needs at least one run");
    {
        RunStore store(db_path, Access::read);
        for (const int64_t id : ids)
            if (store.info(id).status == "running")
                throw StoreError("run " + std::to_string(id) +
                                 " is still running: export it once it has ended");
    }
    const ScratchDir scratch;
    const std::string file = scratch.file("bundle.db");
    {
        auto bundle = open_database(file, Access::write);
        Statement(*bundle, "ATTACH DATABASE ?1 AS src").bind(1, db_path).run();
        const auto tables = run_tables(*bundle);
        bundle->exec("BEGIN");
        for (const int64_t id : ids)
            copy_out(*bundle, id, tables);
        bundle->exec("COMMIT");
        bundle->exec("DETACH DATABASE src");
        bundle->exec("VACUUM");
    }
    const std::string db = read_file(file);
    const std::string rest = "bytes " + std::to_string(db.size()) + "\n" + deflated(db);
    write_whole(path, std::string(kMagic) + "sha256 " + sha256_hex(rest) + "\n" + rest);
}

bool is_bundle(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string head(kMagic.size(), '\0');
    in.read(head.data(), std::streamsize(head.size()));
    return in && head == kMagic;
}

BundleImport import_bundle(const std::string& db_path, const std::string& path,
                           const std::vector<std::string>& tags) {
    const ScratchDir scratch;
    const std::string file = scratch.file("bundle.db");
    write_whole(file, database_of(read_file(path)));
    try {
        // Migrates a bundle an earlier PerfLab wrote; refuses one from a later PerfLab.
        open_database(file, Access::write);
    } catch (const StoreError& e) {
        throw StoreError(path + ": " + e.what());
    }

    BundleImport result;
    auto db = open_database(db_path, Access::write);
    Statement(*db, "ATTACH DATABASE ?1 AS bundle").bind(1, file).run();
    db->exec("CREATE TEMP TABLE IF NOT EXISTS host_ids (bundle INTEGER PRIMARY KEY, here INTEGER)");
    std::vector<BundleRun> runs;
    {
        Statement q(*db,
                    "SELECT id, name, COALESCE(source_sha256, '') FROM bundle.runs ORDER BY id");
        while (q.step())
            runs.push_back({q.integer(0), q.text(1), q.text(2)});
    }
    if (runs.empty()) throw ImportError("PerfLab bundle", "it holds no run");
    const auto tables = run_tables(*db);
    {
        Transaction tx(*db);
        for (const auto& run : runs) {
            if (const auto here = same_run(*db, run)) {
                result.already.emplace_back(run.id, *here);
                continue;
            }
            const int64_t here = copy_in(*db, run, tables);
            for (const auto& t : tags)
                tag(*db, here, t);
            keep_one_baseline(*db, here, run.name);
            Statement ops(*db, "SELECT ops FROM main.runs WHERE id = ?1");
            ops.bind(1, here);
            if (ops.step()) result.requests += uint64_t(ops.integer(0));
            ops.run();
            result.stored.emplace_back(run.id, here);
        }
        if (result.stored.empty()) {
            std::string list;
            for (const auto& [from, here] : result.already)
                list += (list.empty() ? "" : ", run ") + std::to_string(from) + " as run " +
                        std::to_string(here);
            throw ImportError("PerfLab bundle",
                              "every run of it is stored here already (run " + list + ")");
        }
        tx.commit();
    }
    db->exec("DETACH DATABASE bundle");
    return result;
}

}  // namespace perflab
