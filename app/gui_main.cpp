// SPDX-License-Identifier: MIT
#include "gui_main.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <algorithm>

#include "main_window.h"
#include "metatypes.h"
#include "resources.h"
#include "spec_form.h"

namespace perflab {

namespace {

// Options the screenshot script and first-time users drive the window with.
void apply_options(MainWindow& window) {
    QCommandLineParser parser;
    const QCommandLineOption quick(QStringLiteral("quick-start"),
                                   QStringLiteral("Start the quick-start demo run"),
                                   QStringLiteral("seconds"));
    const QCommandLineOption spec(QStringLiteral("spec"), QStringLiteral("Open a run spec"),
                                  QStringLiteral("file"));
    const QCommandLineOption view(QStringLiteral("view"), QStringLiteral("setup or live"),
                                  QStringLiteral("name"));
    parser.addOptions({quick, spec, view});
    parser.parse(QApplication::arguments());
    QString error;
    if (parser.isSet(spec) && !window.specForm()->loadFile(parser.value(spec), &error))
        QMessageBox::warning(&window, QStringLiteral("PerfLab"), error);
    if (parser.isSet(view))
        window.showView(parser.value(view) == QLatin1String("live") ? MainWindow::View::live
                                                                    : MainWindow::View::setup);
    const int seconds = std::max(parser.value(quick).toInt(), 3);
    if (parser.isSet(quick) && !window.quickStart(seconds, &error))
        QMessageBox::warning(&window, QStringLiteral("PerfLab"), error);
}

}  // namespace

int gui_main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("PerfLab"));
    QApplication::setApplicationName(QStringLiteral("PerfLab"));
    QApplication::setApplicationVersion(QStringLiteral(PERFLAB_VERSION));
    register_metatypes();
    init_resources();
    MainWindow window;
    window.show();
    apply_options(window);
    return QApplication::exec();
}

}  // namespace perflab
