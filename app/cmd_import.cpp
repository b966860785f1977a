// SPDX-License-Identifier: MIT
#include <iostream>

#include "commands.h"
#include "import_nmon.h"
#include "import_record.h"
#include "store_access.h"

namespace perflab {

int import_command(const ImportCommandOptions& o) {
    const std::string db = database_path(o.db);
    ImportOptions options = o.import;
    if (!o.max_span.empty()) {
        const auto ms = parse_duration_ms(o.max_span);
        if (!ms || *ms < 1000)
            return bad_input("--max-span: \"" + o.max_span +
                             "\" is not a duration of a second or more (e.g. 45d, 90d12h)");
        options.max_span_s = *ms / 1000;
    }
    try {
        // Progress on stderr in tenths, for a file that takes a while.
        int shown = 0;
        options.progress = [&shown](double share) {
            const int tenth = int(share * 10);
            if (tenth <= shown || tenth >= 10) return;
            shown = tenth;
            std::cerr << "importing: " << tenth * 10 << "%\n";
        };
        const ImportResult r = import_run(db, options);
        for (const auto& w : r.warnings)
            std::cerr << "perflab: " << o.import.file << ": warning: " << w << "\n";
        if (r.format == "bundle")
            std::cerr << r.run_ids.size() << (r.run_ids.size() == 1 ? " run" : " runs")
                      << " stored in " << db << " from the bundle " << o.import.file << "\n";
        else
            std::cerr << "run " << r.run_id << " stored in " << db << ": " << r.requests
                      << " requests from " << r.format << " results " << o.import.file << "\n";
        for (const auto& remark : r.remarks)
            std::cerr << "perflab: " << o.import.file << ": " << remark << "\n";
        for (const int64_t id : r.run_ids)
            std::cout << id << "\n";
        std::cout << std::flush;
        return kExitOk;
    } catch (const ImportError& e) {
        return bad_input(o.import.file + ": " + e.what());
    } catch (const std::exception& e) {
        return bad_input(e.what());
    }
}

int import_host_command(const ImportHostOptions& o) {
    const std::string db = database_path(o.db);
    try {
        const HostImport r = import_host_capture(db, o.run, o.file, o.host);
        std::cerr << r.added << " samples of " << r.source << " added to run " << o.run;
        if (r.outside) std::cerr << " (" << r.outside << " outside the run left out)";
        std::cerr << "\n";
        return kExitOk;
    } catch (const ImportError& e) {
        return bad_input(o.file + ": " + e.what());
    } catch (const std::exception& e) {
        return bad_input(e.what());
    }
}

}  // namespace perflab
