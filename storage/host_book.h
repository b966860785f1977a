// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "database.h"
#include "model/spec.h"

namespace perflab {

// An SSH host the user saved for probing. Secrets are never part of it: a key's passphrase
// is asked for when needed and kept in memory only.
struct SavedHost {
    int64_t id = 0;  // 0 until added
    std::string name;
    std::string target;    // user@host[:port]
    std::string key_file;  // private key; empty: ssh-agent
    bool per_core = false;
    std::string notes;
};

// The probe a run spec gets for a saved host.
ProbeSpec probe_spec(const SavedHost& host);

// The saved hosts in a PerfLab database (the same file as the runs), on its own connection.
// Bad input throws StoreError naming the field ("name: ...", "target: ...").
class HostBook {
  public:
    HostBook(const std::string& path, Access access);

    std::vector<SavedHost> list();  // by name
    // Throws StoreError "no saved host ID in PATH" for an unknown id.
    SavedHost get(int64_t id);
    int64_t add(const SavedHost& host);  // returns the new id
    void update(const SavedHost& host);  // by host.id
    void remove(int64_t id);

  private:
    void check(const SavedHost& host);
    [[noreturn]] void no_host(int64_t id) const;

    std::string path_;
    std::unique_ptr<Connection> db_;
};

}  // namespace perflab
