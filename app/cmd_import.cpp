// SPDX-License-Identifier: MIT
#include <iostream>

#include "commands.h"
#include "import_record.h"
#include "store_access.h"

namespace perflab {

int import_command(const ImportCommandOptions& o) {
    const std::string db = database_path(o.db);
    try {
        const ImportResult r = import_run(db, o.import);
        std::cerr << "run " << r.run_id << " stored in " << db << ": " << r.requests
                  << " requests from " << r.format << " results " << o.import.file << "\n";
        std::cout << r.run_id << std::endl;
        return kExitOk;
    } catch (const ImportError& e) {
        return bad_input(o.import.file + ": " + e.what());
    } catch (const std::exception& e) {
        return bad_input(e.what());
    }
}

}  // namespace perflab
