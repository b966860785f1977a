// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QWidget;

namespace perflab {

// File dialogs that open in the directory remembered under `dirKey` (QSettings) and remember
// the chosen file's directory there. Empty when the user cancels.
QString ask_open_path(QWidget* parent, const QString& title, const QString& filter,
                      const QString& dirKey);
// A name typed without a suffix the filters know gets the chosen filter's: "PDF (*.pdf)" and
// "chart" give chart.pdf. `name` is the file name offered first.
QString ask_save_path(QWidget* parent, const QString& title, const QString& filter,
                      const QString& dirKey, const QString& name = {});

// What ask_save_path does with the dialog's answer: `path` as given when its suffix is one of
// `filters`' ("PNG image (*.png);;PDF (*.pdf)"), else with `chosen`'s first suffix added.
QString with_filter_suffix(const QString& path, const QString& filters, const QString& chosen);

}  // namespace perflab
