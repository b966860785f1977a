// SPDX-License-Identifier: MIT
#include "drawn_report.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <clocale>
#include <cstdio>

#include "commands.h"
#include "run_export.h"
#include "run_store.h"
#include "store_access.h"
#include "stored_run.h"

namespace perflab {

int export_drawn_report(const std::string& db_path, int64_t id, std::string output,
                        const std::string& format) {
    if (output.empty() && format == "pdf") {
        std::fprintf(stderr, "perflab: --format pdf: give the file to write with -o\n");
        return kExitBadInput;
    }
    if (!output.empty() && QFileInfo(QString::fromStdString(output)).suffix().isEmpty())
        output += "." + format;
    // The charts are widgets drawn to images: they need an application, not a screen.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "perflab";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    std::setlocale(LC_NUMERIC, "C");  // QApplication took the user's, for the report's numbers
    // The report is written where its name says its format, then goes where it was asked to.
    const QTemporaryDir scratch;
    const QString drawn =
        scratch.filePath(QStringLiteral("report.") + QString::fromStdString(format));
    try {
        RunStore store(db_path, Access::read);
        const StoredRun run = load_stored_run(store, id);
        QString error;
        if (!write_run_report(run, drawn, &error)) {
            std::fprintf(stderr, "perflab: %s\n", error.toUtf8().constData());
            return kExitBadInput;
        }
    } catch (const StoreError& e) {
        std::fprintf(stderr, "perflab: %s\n", e.what());
        return kExitBadInput;
    }
    QFile file(drawn);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "perflab: cannot read the report drawn at %s\n",
                     drawn.toUtf8().constData());
        return kExitBadInput;
    }
    if (!write_output(output, file.readAll().toStdString())) return kExitBadInput;
    if (!output.empty())
        std::fprintf(stderr, "%s: run %lld's report\n", output.c_str(), static_cast<long long>(id));
    return kExitOk;
}

}  // namespace perflab
