// SPDX-License-Identifier: MIT
#include "file_dialogs.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>

namespace perflab {

namespace {

// "Markdown (*.md);;HTML (*.html *.htm)" → md, html, htm.
QStringList suffixes(const QString& filters) {
    static const QRegularExpression pattern(QStringLiteral("\\*\\.([A-Za-z0-9]+)"));
    QStringList out;
    for (auto it = pattern.globalMatch(filters); it.hasNext();)
        out << it.next().captured(1).toLower();
    return out;
}

}  // namespace

QString with_filter_suffix(const QString& path, const QString& filters, const QString& chosen) {
    const QStringList wanted = suffixes(chosen);
    if (path.isEmpty() || wanted.isEmpty()) return path;
    if (suffixes(filters).contains(QFileInfo(path).suffix().toLower())) return path;
    return path + QLatin1Char('.') + wanted.front();
}

QString ask_open_path(QWidget* parent, const QString& title, const QString& filter,
                      const QString& dirKey) {
    QSettings settings;
    const QString path =
        QFileDialog::getOpenFileName(parent, title, settings.value(dirKey).toString(), filter);
    if (!path.isEmpty()) settings.setValue(dirKey, QFileInfo(path).absolutePath());
    return path;
}

QString ask_save_path(QWidget* parent, const QString& title, const QString& filter,
                      const QString& dirKey, const QString& name) {
    QSettings settings;
    QFileDialog dialog(parent, title, settings.value(dirKey).toString(), filter);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    // The dialog itself adds the suffix as the user switches filters, so that its check for
    // an existing file sees the name that will be written.
    const auto follow = [&dialog](const QString& chosen) {
        const QStringList s = suffixes(chosen);
        dialog.setDefaultSuffix(s.isEmpty() ? QString() : s.front());
    };
    follow(dialog.selectedNameFilter());
    QObject::connect(&dialog, &QFileDialog::filterSelected, &dialog, follow);
    if (!name.isEmpty()) dialog.selectFile(name);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return {};
    const QString path =
        with_filter_suffix(dialog.selectedFiles().front(), filter, dialog.selectedNameFilter());
    settings.setValue(dirKey, QFileInfo(path).absolutePath());
    return path;
}

}  // namespace perflab
