// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QWidget;

namespace perflab {

// File dialogs that open in the directory remembered under `dirKey` (QSettings) and remember
// the chosen file's directory there. Empty when the user cancels.
QString ask_open_path(QWidget* parent, const QString& title, const QString& filter,
                      const QString& dirKey);
QString ask_save_path(QWidget* parent, const QString& title, const QString& filter,
                      const QString& dirKey);

}  // namespace perflab
