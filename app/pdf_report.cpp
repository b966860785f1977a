// SPDX-License-Identifier: MIT
#include "pdf_report.h"

#include <QApplication>
#include <QFileInfo>
#include <cstdio>

#include "commands.h"
#include "run_export.h"
#include "run_store.h"
#include "stored_run.h"

namespace perflab {

int export_pdf_report(const std::string& db_path, int64_t id, std::string output) {
    if (output.empty()) {
        std::fprintf(stderr, "perflab: --format pdf: give the file to write with -o\n");
        return kExitBadInput;
    }
    if (QFileInfo(QString::fromStdString(output)).suffix().isEmpty()) output += ".pdf";
    // The charts are widgets drawn to images: they need an application, not a screen.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "perflab";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    try {
        RunStore store(db_path, Access::read);
        const StoredRun run = load_stored_run(store, id);
        QString error;
        if (!write_run_report(run, QString::fromStdString(output), &error)) {
            std::fprintf(stderr, "perflab: %s\n", error.toUtf8().constData());
            return kExitBadInput;
        }
    } catch (const StoreError& e) {
        std::fprintf(stderr, "perflab: %s\n", e.what());
        return kExitBadInput;
    }
    std::fprintf(stderr, "%s: run %lld's report\n", output.c_str(), static_cast<long long>(id));
    return kExitOk;
}

}  // namespace perflab
