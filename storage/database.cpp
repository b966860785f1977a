// SPDX-License-Identifier: MIT
#include "database.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "schema.h"

namespace perflab {

namespace {

namespace fs = std::filesystem;

// What the first bytes say, before SQLite is allowed near the file.
enum class FileKind { missing, empty, sqlite, other };

FileKind probe_file(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return FileKind::missing;
    if (fs::is_directory(path, ec)) return FileKind::other;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw StoreError("cannot read database " + path + ": " + std::strerror(errno));
    char header[16] = {};
    in.read(header, sizeof header);
    if (in.gcount() == 0) return FileKind::empty;
    if (in.gcount() == 16 && std::memcmp(header, "SQLite format 3", 16) == 0)
        return FileKind::sqlite;
    return FileKind::other;
}

// Refuses, without writing, a database that another program or a newer PerfLab made.
void check_existing(const std::string& path) {
    Connection db(path, Connection::Mode::read_only);
    int version = 0;
    int app = 0;
    int tables = 0;
    try {
        version = pragma_int(db, "user_version");
        app = pragma_int(db, "application_id");
        Statement q(db, "SELECT count(*) FROM sqlite_schema");
        if (q.step()) tables = int(q.integer(0));
        q.run();
    } catch (const StoreError&) {
        throw StoreError(path + " is not a PerfLab database (SQLite cannot read it)");
    }
    if (app != kApplicationId && tables > 0)
        throw StoreError(path + " is an SQLite database of another program, not PerfLab's");
    if (version > kSchemaVersion)
        throw StoreError(path + " was written by a newer PerfLab (schema version " +
                         std::to_string(version) + "; this PerfLab knows up to " +
                         std::to_string(kSchemaVersion) + "): upgrade PerfLab to open it");
}

void ensure_directory(const std::string& path) {
    const fs::path dir = fs::path(path).parent_path();
    if (dir.empty()) return;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        throw StoreError("cannot create the directory of database " + path + ": " + ec.message());
}

// WAL with NORMAL: a killed process loses nothing committed; only a power cut may lose the
// last transactions.
void set_up(Connection& db, const std::string& path) {
    try {
        db.exec("PRAGMA foreign_keys = ON");
        db.exec("PRAGMA journal_mode = WAL");
        db.exec("PRAGMA synchronous = NORMAL");
        migrate(db);
    } catch (const StoreError& e) {
        throw StoreError("cannot write to database " + path + ": " + e.what());
    }
}

// Moves `from` to `to` unless `to` exists; false when it does.
bool move_unless_exists(const std::string& from, const std::string& to) {
    if (renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return true;
    int err = errno;
    // Filesystems without RENAME_NOREPLACE (NFS) still refuse a hard link over a file.
    if (err == EINVAL || err == ENOSYS) {
        if (link(from.c_str(), to.c_str()) == 0) {
            unlink(from.c_str());
            return true;
        }
        err = errno;
    }
    if (err == EEXIST) return false;
    throw StoreError("cannot create database " + to + ": " + std::strerror(err));
}

// A new database appears whole: it is set up under a name of its own and moved into place
// only if no one made one meanwhile. Two writers setting up one new file at once left one of
// them with "database is locked" (the history's first listing and a run's store, both at a
// window's start), and that run unstored.
void create_database(const std::string& path) {
    ensure_directory(path);
    static std::atomic<unsigned> made{0};
    const std::string staging =
        path + ".new-" + std::to_string(getpid()) + "-" + std::to_string(made++);
    const auto remove_staging = [&] {
        for (const char* suffix : {"", "-wal", "-shm", "-journal"})
            unlink((staging + suffix).c_str());
    };
    try {
        // Closing the only connection folds the WAL into the file and removes it.
        Connection db(staging, Connection::Mode::create);
        set_up(db, path);
    } catch (...) {
        remove_staging();
        throw;
    }
    if (!move_unless_exists(staging, path)) remove_staging();
}

}  // namespace

std::unique_ptr<Connection> open_database(const std::string& path, Access access) {
    if (path.empty()) throw StoreError("no database path given");
    const FileKind kind = probe_file(path);
    if (kind == FileKind::other)
        throw StoreError(path + " is not a PerfLab database (not an SQLite file)");
    // An empty file holds no run; setting it up is left to a writer.
    if ((kind == FileKind::missing || kind == FileKind::empty) && access == Access::read)
        throw StoreError("no database at " + path + " (no run stored yet)");
    if (kind == FileKind::missing) create_database(path);
    if (kind != FileKind::empty) check_existing(path);
    auto db = std::make_unique<Connection>(path, Connection::Mode::read_write);
    if (sqlite3_db_readonly(db->handle(), "main") == 1)
        throw StoreError("cannot write to database " + path + " (read-only location)");
    set_up(*db, path);
    return db;
}

std::string default_database_path() {
    const char* xdg = std::getenv("XDG_DATA_HOME");
    if (xdg && *xdg == '/') return std::string(xdg) + "/perflab/perflab.db";
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : ".") + "/.local/share/perflab/perflab.db";
}

}  // namespace perflab
