// SPDX-License-Identifier: MIT
#include "chart_export.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QSvgGenerator>

#include "file_dialogs.h"

namespace perflab {

namespace {

bool save_svg(QCustomPlot* plot, const QString& path, int width, int height) {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(QSize(width, height));
    svg.setViewBox(QRect(0, 0, width, height));
    svg.setTitle(QStringLiteral("PerfLab chart"));
    QCPPainter painter;
    if (!painter.begin(&svg)) return false;
    plot->toPainter(&painter, width, height);
    return painter.end();
}

}  // namespace

bool export_chart(QCustomPlot* plot, const QString& path, int width, int height, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    bool ok = false;
    if (suffix == QLatin1String("png"))
        ok = plot->savePng(path, width, height);
    else if (suffix == QLatin1String("pdf"))
        ok = plot->savePdf(path, width, height);
    else if (suffix == QLatin1String("svg"))
        ok = save_svg(plot, path, width, height);
    else {
        *error = QObject::tr("unknown chart format \"%1\": use .png, .pdf or .svg").arg(suffix);
        return false;
    }
    if (!ok) *error = QObject::tr("cannot write %1").arg(path);
    return ok;
}

void export_chart_dialog(QWidget* parent, QCustomPlot* plot) {
    const QString path = ask_save_path(parent, QObject::tr("Export chart"),
                                       QObject::tr("PNG image (*.png);;PDF (*.pdf);;SVG (*.svg)"),
                                       QStringLiteral("export/dir"));
    if (path.isEmpty()) return;
    QSettings settings;
    bool ok = false;
    const QString size = QInputDialog::getText(
        parent, QObject::tr("Export chart"), QObject::tr("Size in pixels (width x height):"),
        QLineEdit::Normal,
        settings.value(QStringLiteral("export/size"), QStringLiteral("1600x1000")).toString(), &ok);
    if (!ok) return;
    const auto m = QRegularExpression(QStringLiteral("^\\s*(\\d{3,5})\\s*[xX×]\\s*(\\d{3,5})\\s*$"))
                       .match(size);
    const int width = m.captured(1).toInt(), height = m.captured(2).toInt();
    if (!m.hasMatch() || width > 10000 || height > 10000) {
        QMessageBox::warning(parent, QObject::tr("Cannot export"),
                             QObject::tr("size \"%1\": expected e.g. 1600x1000").arg(size));
        return;
    }
    settings.setValue(QStringLiteral("export/size"), size);
    QString error;
    if (!export_chart(plot, path, width, height, &error))
        QMessageBox::warning(parent, QObject::tr("Cannot export"), error);
}

}  // namespace perflab
