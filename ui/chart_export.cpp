// SPDX-License-Identifier: MIT
#include "chart_export.h"

#include <qcustomplot.h>

#include <QFileInfo>
#include <QSvgGenerator>

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

}  // namespace perflab
