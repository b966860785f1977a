// SPDX-License-Identifier: MIT
#pragma once

// A PDF as poppler-utils read it: its page count, a page's text, its raster images.
#include <QString>
#include <QStringList>

#include "process.h"

namespace perflab::test {

inline int pdf_pages(const QString& path) {
    const Output info = run({"pdfinfo", path.toStdString()});
    for (const QString& line : QString::fromStdString(info.out).split(QLatin1Char('\n')))
        if (line.startsWith(QLatin1String("Pages:"))) return line.mid(6).trimmed().toInt();
    return 0;
}

// Page `page` (from 1), or every page with 0. The fonts' ligatures ("ﬀ" in "differences")
// read as their letters.
inline QString pdf_text(const QString& path, int page = 0) {
    std::vector<std::string> argv{"pdftotext", "-layout"};
    if (page > 0)
        for (const char* flag : {"-f", "-l"})
            argv.insert(argv.end(), {flag, std::to_string(page)});
    argv.insert(argv.end(), {path.toStdString(), "-"});
    QString text = QString::fromStdString(run(argv).out);
    const char* letters[] = {"ff", "fi", "fl", "ffi", "ffl"};  // U+FB00 to U+FB04
    for (char16_t ligature = 0xFB00; ligature <= 0xFB04; ++ligature)
        text.replace(QChar(ligature), QLatin1String(letters[ligature - 0xFB00]));
    return text;
}

// One line per raster image (pdfimages -list, its two header lines left out): a chart drawn as
// vector graphics has none.
inline QStringList pdf_images(const QString& path) {
    QStringList lines = QString::fromStdString(run({"pdfimages", "-list", path.toStdString()}).out)
                            .split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines.mid(2);
}

}  // namespace perflab::test
