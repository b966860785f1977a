// SPDX-License-Identifier: MIT
#include "chart_export.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>
#include <QSvgGenerator>

#include "file_dialogs.h"

namespace perflab {

namespace {

// Room around the exported plot: the top legend's text, the first value label and the last
// time label were drawn up to the image's edge and cut there.
const QMargins kExportMargins(12, 10, 24, 10);

// What an export adds to a plot for its image, taken back when done: the title in a row
// above everything, the margin, and the pointer's items hidden (the crosshair was drawn where
// the mouse happened to be when the user chose Export).
class ExportDress {
  public:
    ExportDress(QCustomPlot* plot, const QString& title, int width)
        : plot_(plot),
          margins_(plot->plotLayout()->margins()),
          pointer_(plot->layer(kPointerLayer)) {
        if (pointer_) {
            pointerShown_ = pointer_->visible();
            pointer_->setVisible(false);
        }
        plot_->plotLayout()->setMargins(kExportMargins);
        if (title.isEmpty()) return;
        const QFont font = chart_title_font(plot_);
        // Elided: a title longer than the image would widen the layout past it, axes and all.
        const int room = chart_title_room(width);
        const QString text = QFontMetrics(font).elidedText(title, Qt::ElideMiddle, room);
        title_ = new QCPTextElement(plot_, text, font);
        title_->setMargins(QMargins(0, 0, 0, 6));
        plot_->plotLayout()->insertRow(0);
        plot_->plotLayout()->addElement(0, 0, title_);
        plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    }
    ~ExportDress() {
        if (title_) {
            plot_->plotLayout()->remove(title_);
            plot_->plotLayout()->simplify();
        }
        plot_->plotLayout()->setMargins(margins_);
        if (pointer_) pointer_->setVisible(pointerShown_);
        // The layout's inner rect follows its margins only when its outer rect is set.
        plot_->setViewport(plot_->viewport());
        // The export laid the plot out at its own size: the screen's layout comes back.
        plot_->replot(QCustomPlot::rpQueuedReplot);
    }
    ExportDress(const ExportDress&) = delete;
    ExportDress& operator=(const ExportDress&) = delete;

  private:
    QCustomPlot* plot_;
    QMargins margins_;
    QCPLayer* pointer_;
    bool pointerShown_ = false;
    QCPTextElement* title_ = nullptr;
};

bool save_svg(QCustomPlot* plot, const QString& path, int width, int height, const QString& title) {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(QSize(width, height));
    svg.setViewBox(QRect(0, 0, width, height));
    svg.setTitle(title.isEmpty() ? QStringLiteral("PerfLab chart") : title);
    QCPPainter painter;
    if (!painter.begin(&svg)) return false;
    plot->toPainter(&painter, width, height);
    return painter.end();
}

}  // namespace

QFont chart_title_font(QCustomPlot* plot) {
    QFont font = plot->font();
    font.setPointSizeF(font.pointSizeF() * 1.2);
    font.setBold(true);
    return font;
}

int chart_title_room(int width) {
    return width - kExportMargins.left() - kExportMargins.right();
}

bool chart_has_data(QCustomPlot* plot) {
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (const auto* data = plot->plottable(i)->interface1D(); data && data->dataCount() > 0)
            return true;
    return false;
}

bool export_chart(QCustomPlot* plot, const QString& path, int width, int height, QString* error,
                  const QString& title) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("pdf") &&
        suffix != QLatin1String("svg")) {
        *error = QObject::tr("unknown chart format \"%1\": use .png, .pdf or .svg").arg(suffix);
        return false;
    }
    if (!chart_has_data(plot)) {
        *error = QObject::tr("nothing to export: the chart has nothing drawn yet");
        return false;
    }
    const ExportDress dress(plot, title, width);
    // Once at the export's size first: a chart fits its legends' lines and its tick counts to
    // the size it was last laid out at, which for the export is the window's.
    plot->toPixmap(width, height);
    bool ok = false;
    if (suffix == QLatin1String("png"))
        ok = plot->savePng(path, width, height);
    else if (suffix == QLatin1String("pdf"))
        ok = plot->savePdf(path, width, height, QCP::epAllowCosmetic, QStringLiteral("PerfLab"),
                           title);
    else
        ok = save_svg(plot, path, width, height, title);
    if (!ok) *error = QObject::tr("cannot write %1").arg(path);
    return ok;
}

void draw_chart(QCustomPlot* plot, QCPPainter* painter, int width, int height,
                const QString& title) {
    const ExportDress dress(plot, title, width);
    plot->toPixmap(width, height);  // laid out at this size first, as in export_chart
    painter->setMode(QCPPainter::pmVectorized);
    plot->toPainter(painter, width, height);
}

QByteArray chart_png(QCustomPlot* plot, int width, int height, const QString& title) {
    const ExportDress dress(plot, title, width);
    plot->toPixmap(width, height);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    plot->toPixmap(width, height).save(&buffer, "PNG");
    return bytes;
}

void export_chart_dialog(QWidget* parent, QCustomPlot* plot, const QString& title) {
    if (!chart_has_data(plot)) {
        QMessageBox::warning(parent, QObject::tr("Nothing to export"),
                             QObject::tr("The chart has nothing drawn yet."));
        return;
    }
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
    if (!export_chart(plot, path, width, height, &error, title))
        QMessageBox::warning(parent, QObject::tr("Cannot export"), error);
}

}  // namespace perflab
