// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace perflab {

// Anything the store cannot do: a file that is not a database, a newer schema, a location it
// cannot write, a run that does not exist. The message names the file or the id.
class StoreError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// One SQLite connection, owned by one thread at a time.
class Connection {
  public:
    enum class Mode { read_only, read_write, create };
    Connection(const std::string& path, Mode mode);
    ~Connection();
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;

    void exec(const char* sql);
    int64_t last_insert_id() const;
    int changes() const;
    sqlite3* handle() const { return db_; }
    const std::string& path() const { return path_; }
    [[noreturn]] void fail(const std::string& what) const;

  private:
    sqlite3* db_ = nullptr;
    std::string path_;
};

// A prepared statement with bound parameters; reset after every full step loop.
class Statement {
  public:
    Statement(Connection& db, const char* sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int index, int64_t value);
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view text);
    Statement& bind_blob(int index, std::string_view bytes);
    Statement& bind_null(int index);
    // True while there is a row; false when done (and the statement is reset for reuse).
    bool step();
    void run();  // step to the end

    int64_t integer(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    std::string_view blob(int column) const;
    bool is_null(int column) const;

  private:
    Connection& db_;
    sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE on construction, ROLLBACK unless committed.
class Transaction {
  public:
    explicit Transaction(Connection& db);
    ~Transaction();
    void commit();

  private:
    Connection& db_;
    bool done_ = false;
};

}  // namespace perflab
