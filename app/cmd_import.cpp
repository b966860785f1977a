// SPDX-License-Identifier: MIT
#include <iostream>

#include "commands.h"
#include "import_record.h"
#include "store_access.h"

namespace perflab {

int import_command(const ImportCommandOptions& o) {
    const std::string db = database_path(o.db);
    try {
        ImportOptions options = o.import;
        // Progress on stderr in tenths, for a file that takes a while.
        int shown = 0;
        options.progress = [&shown](double share) {
            const int tenth = int(share * 10);
            if (tenth <= shown || tenth >= 10) return;
            shown = tenth;
            std::cerr << "importing: " << tenth * 10 << "%\n";
        };
        const ImportResult r = import_run(db, options);
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
