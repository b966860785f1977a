// SPDX-License-Identifier: MIT
#pragma once

#include <memory>
#include <string>

#include "sqlite.h"

namespace perflab {

// The schema version this build writes; a database with a higher one is refused untouched.
constexpr int kSchemaVersion = 19;

enum class Access {
    read,   // the file must exist; nothing is created
    write,  // created (with its directory) when missing
};

// Opens a PerfLab database: checks that the file is SQLite and ours and not from a newer
// PerfLab before anything writes to it, then migrates it to kSchemaVersion, with WAL and
// foreign keys on. Throws StoreError with a message that names the path.
std::unique_ptr<Connection> open_database(const std::string& path, Access access);

// $XDG_DATA_HOME/perflab/perflab.db, or ~/.local/share/perflab/perflab.db.
std::string default_database_path();

}  // namespace perflab
