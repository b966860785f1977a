// SPDX-License-Identifier: MIT
#include "file_dialogs.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

namespace perflab {

namespace {

using Ask = QString (*)(QWidget*, const QString&, const QString&, const QString&, QString*,
                        QFileDialog::Options);

QString ask_path(Ask ask, QWidget* parent, const QString& title, const QString& filter,
                 const QString& dirKey) {
    QSettings settings;
    const QString path = ask(parent, title, settings.value(dirKey).toString(), filter, nullptr, {});
    if (!path.isEmpty()) settings.setValue(dirKey, QFileInfo(path).absolutePath());
    return path;
}

}  // namespace

QString ask_open_path(QWidget* parent, const QString& title, const QString& filter,
                      const QString& dirKey) {
    return ask_path(&QFileDialog::getOpenFileName, parent, title, filter, dirKey);
}

QString ask_save_path(QWidget* parent, const QString& title, const QString& filter,
                      const QString& dirKey) {
    return ask_path(&QFileDialog::getSaveFileName, parent, title, filter, dirKey);
}

}  // namespace perflab
