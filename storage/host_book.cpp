// SPDX-License-Identifier: MIT
#include "host_book.h"

#include "remote/ssh_session.h"

namespace perflab {

namespace {

constexpr const char* kColumns = "id, name, target, key_file, per_core, notes";

SavedHost row_host(const Statement& q) {
    SavedHost h;
    h.id = q.integer(0);
    h.name = q.text(1);
    h.target = q.text(2);
    h.key_file = q.text(3);
    h.per_core = q.integer(4) != 0;
    h.notes = q.text(5);
    return h;
}

Statement& bind_fields(Statement& q, const SavedHost& h) {
    return q.bind(1, std::string_view(h.name))
        .bind(2, std::string_view(h.target))
        .bind(3, std::string_view(h.key_file))
        .bind(4, int64_t(h.per_core ? 1 : 0))
        .bind(5, std::string_view(h.notes));
}

}  // namespace

ProbeSpec probe_spec(const SavedHost& host) {
    ProbeSpec p;
    p.type = ProbeSpec::Type::ssh;
    p.target = host.target;
    p.key = host.key_file;
    p.per_core = host.per_core;
    return p;
}

HostBook::HostBook(const std::string& path, Access access)
    : path_(path), db_(open_database(path, access)) {}

std::vector<SavedHost> HostBook::list() {
    Statement q(*db_, (std::string("SELECT ") + kColumns +
                       " FROM saved_hosts ORDER BY name COLLATE NOCASE, id")
                          .c_str());
    std::vector<SavedHost> out;
    while (q.step())
        out.push_back(row_host(q));
    return out;
}

SavedHost HostBook::get(int64_t id) {
    Statement q(*db_,
                (std::string("SELECT ") + kColumns + " FROM saved_hosts WHERE id = ?1").c_str());
    q.bind(1, id);
    if (!q.step()) no_host(id);
    SavedHost h = row_host(q);
    q.run();
    return h;
}

void HostBook::check(const SavedHost& h) {
    if (h.name.find_first_not_of(" \t") == std::string::npos)
        throw StoreError("name: a saved host needs a name");
    if (!parse_ssh_target(h.target))
        throw StoreError("target: \"" + h.target + "\" is not user@host[:port]");
    Statement q(*db_, "SELECT count(*) FROM saved_hosts WHERE name = ?1 AND id != ?2");
    q.bind(1, std::string_view(h.name)).bind(2, h.id);
    const bool taken = q.step() && q.integer(0) > 0;
    q.run();
    if (taken) throw StoreError("name: a host named \"" + h.name + "\" is already saved");
}

int64_t HostBook::add(const SavedHost& host) {
    Transaction tx(*db_);
    SavedHost h = host;
    h.id = 0;
    check(h);
    Statement q(*db_,
                "INSERT INTO saved_hosts (name, target, key_file, per_core, notes) "
                "VALUES (?1, ?2, ?3, ?4, ?5)");
    bind_fields(q, h).run();
    const int64_t id = db_->last_insert_id();
    tx.commit();
    return id;
}

void HostBook::update(const SavedHost& host) {
    Transaction tx(*db_);
    check(host);
    Statement q(*db_,
                "UPDATE saved_hosts SET name = ?1, target = ?2, key_file = ?3, per_core = ?4, "
                "notes = ?5 WHERE id = ?6");
    bind_fields(q, host).bind(6, host.id).run();
    if (db_->changes() == 0) no_host(host.id);
    tx.commit();
}

void HostBook::remove(int64_t id) {
    Statement q(*db_, "DELETE FROM saved_hosts WHERE id = ?1");
    q.bind(1, id).run();
    if (db_->changes() == 0) no_host(id);
}

void HostBook::no_host(int64_t id) const {
    throw StoreError("no saved host " + std::to_string(id) + " in " + path_);
}

}  // namespace perflab
