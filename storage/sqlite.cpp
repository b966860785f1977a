// SPDX-License-Identifier: MIT
#include "sqlite.h"

#include <sqlite3.h>

namespace perflab {

namespace {

// Writers wait this long for another process's transaction before giving up.
constexpr int kBusyTimeoutMs = 5000;

int open_flags(Connection::Mode mode) {
    switch (mode) {
        case Connection::Mode::read_only:
            return SQLITE_OPEN_READONLY;
        case Connection::Mode::read_write:
            return SQLITE_OPEN_READWRITE;
        case Connection::Mode::create:
            return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    }
    return SQLITE_OPEN_READONLY;
}

}  // namespace

Connection::Connection(const std::string& path, Mode mode) : path_(path) {
    const int rc =
        sqlite3_open_v2(path.c_str(), &db_, open_flags(mode) | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close(db_);
        db_ = nullptr;
        throw StoreError("cannot open database " + path + ": " + message);
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, kBusyTimeoutMs);
}

Connection::~Connection() {
    sqlite3_close_v2(db_);
}

void Connection::fail(const std::string& what) const {
    throw StoreError("database " + path_ + ": " + what + ": " + sqlite3_errmsg(db_));
}

void Connection::exec(const char* sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string message = error ? error : "unknown error";
        sqlite3_free(error);
        throw StoreError("database " + path_ + ": " + message);
    }
}

int64_t Connection::last_insert_id() const {
    return sqlite3_last_insert_rowid(db_);
}

int Connection::changes() const {
    return sqlite3_changes(db_);
}

Statement::Statement(Connection& db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db.handle(), sql, -1, &stmt_, nullptr) != SQLITE_OK)
        db.fail("cannot prepare a query");
}

Statement::~Statement() {
    sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int index, int64_t value) {
    sqlite3_bind_int64(stmt_, index, value);
    return *this;
}

Statement& Statement::bind(int index, double value) {
    sqlite3_bind_double(stmt_, index, value);
    return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
    sqlite3_bind_text(stmt_, index, text.data(), int(text.size()), SQLITE_TRANSIENT);
    return *this;
}

Statement& Statement::bind_blob(int index, std::string_view bytes) {
    sqlite3_bind_blob(stmt_, index, bytes.data(), int(bytes.size()), SQLITE_TRANSIENT);
    return *this;
}

Statement& Statement::bind_null(int index) {
    sqlite3_bind_null(stmt_, index);
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    sqlite3_reset(stmt_);
    if (rc != SQLITE_DONE) {
        sqlite3_clear_bindings(stmt_);
        db_.fail("query failed");
    }
    return false;
}

void Statement::run() {
    while (step()) {
    }
    sqlite3_clear_bindings(stmt_);
}

int64_t Statement::integer(int column) const {
    return sqlite3_column_int64(stmt_, column);
}

double Statement::real(int column) const {
    return sqlite3_column_double(stmt_, column);
}

std::string Statement::text(int column) const {
    const auto* p = sqlite3_column_text(stmt_, column);
    return p ? std::string(reinterpret_cast<const char*>(p),
                           size_t(sqlite3_column_bytes(stmt_, column)))
             : std::string();
}

std::string_view Statement::blob(int column) const {
    const void* p = sqlite3_column_blob(stmt_, column);
    return p ? std::string_view(static_cast<const char*>(p),
                                size_t(sqlite3_column_bytes(stmt_, column)))
             : std::string_view();
}

bool Statement::is_null(int column) const {
    return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

Transaction::Transaction(Connection& db) : db_(db) {
    db_.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
    if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
    db_.exec("COMMIT");
    done_ = true;
}

}  // namespace perflab
