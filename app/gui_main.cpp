// SPDX-License-Identifier: MIT
#include "gui_main.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QMessageBox>
#include <algorithm>
#include <clocale>

#include "compare_view.h"
#include "history_view.h"
#include "main_window.h"
#include "metatypes.h"
#include "resources.h"
#include "spec_form.h"

namespace perflab {

const std::vector<GuiOption>& gui_options() {
    static const std::vector<GuiOption> options = {
        {"spec", "file", "Open a run spec in the form"},
        {"start", nullptr, "Start the run the --spec file describes"},
        {"quick-start", "seconds", "Start the quick-start demo run (a local memcached)"},
        {"view", "name", "Show a view: setup, live, history, compare or hosts"},
        {"open", "id", "Open a stored run in the history"},
        {"compare", "ids", "Compare stored runs: ID,ID[,ID...]"},
        {"size", "WxH", "Window size in pixels, e.g. 1024x700"},
    };
    return options;
}

namespace {

// Options the screenshot script and first-time users drive the window with.
void apply_options(MainWindow& window) {
    QCommandLineParser parser;
    for (const GuiOption& o : gui_options())
        parser.addOption(QCommandLineOption(QString::fromLatin1(o.name),
                                            QString::fromLatin1(o.help),
                                            o.value ? QString::fromLatin1(o.value) : QString()));
    parser.parse(QApplication::arguments());
    const QString quick = QStringLiteral("quick-start"), spec = QStringLiteral("spec"),
                  view = QStringLiteral("view"), open = QStringLiteral("open"),
                  compare = QStringLiteral("compare"), start = QStringLiteral("start"),
                  size = QStringLiteral("size");
    QString error;
    if (parser.isSet(spec) && !window.specForm()->loadFile(parser.value(spec), &error))
        QMessageBox::warning(&window, QStringLiteral("PerfLab"), error);
    if (const QStringList wh = parser.value(size).split(QLatin1Char('x')); wh.size() == 2)
        window.resize(wh[0].toInt(), wh[1].toInt());
    if (parser.isSet(start) && window.specForm()->isValid() &&
        !window.startRun(*window.specForm()->spec(), &error))
        QMessageBox::warning(&window, QStringLiteral("PerfLab"), error);
    const QStringList views = {QStringLiteral("setup"), QStringLiteral("live"),
                               QStringLiteral("history"), QStringLiteral("compare"),
                               QStringLiteral("hosts")};
    if (parser.isSet(view) && views.contains(parser.value(view)))
        window.showView(static_cast<MainWindow::View>(views.indexOf(parser.value(view))));
    if (parser.isSet(open)) {
        window.historyView()->openRun(parser.value(open).toLongLong());
        window.showView(MainWindow::View::history);
    }
    if (parser.isSet(compare)) {
        QList<qint64> ids;
        for (const QString& id : parser.value(compare).split(QLatin1Char(',')))
            ids.append(id.toLongLong());
        window.compareView()->compare(ids);
        window.showView(MainWindow::View::compare);
    }
    const int seconds = std::max(parser.value(quick).toInt(), 3);
    if (parser.isSet(quick) && !window.quickStart(seconds, &error))
        QMessageBox::warning(&window, QStringLiteral("PerfLab"), error);
}

}  // namespace

int gui_main(int argc, char** argv) {
    QApplication app(argc, argv);
    // QApplication took the user's locale for the C library too; numbers in files, reports
    // and protocols are written and read with '.' whatever the desktop's language.
    std::setlocale(LC_NUMERIC, "C");
    QApplication::setOrganizationName(QStringLiteral("PerfLab"));
    QApplication::setApplicationName(QStringLiteral("PerfLab"));
    QApplication::setApplicationVersion(QStringLiteral(PERFLAB_VERSION));
    register_metatypes();
    init_resources();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/perflab.svg")));
    // Wayland compositors find the window's icon and name through its desktop entry.
    QGuiApplication::setDesktopFileName(QStringLiteral("perflab"));
    MainWindow window;
    window.show();
    apply_options(window);
    return QApplication::exec();
}

}  // namespace perflab
