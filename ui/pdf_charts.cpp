// SPDX-License-Identifier: MIT
#include "pdf_charts.h"

#include <qcustomplot.h>

#include "chart_export.h"
#include "pdf_report.h"
#include "time_chart.h"

namespace perflab {

void add_pdf_chart(PdfReport& report, QCustomPlot* plot, const QString& title, int height) {
    report.addDrawing(height, [plot, title](QCPPainter* painter, int width, int h) {
        draw_chart(plot, painter, width, h, title);
    });
}

void add_pdf_panels(PdfReport& report, TimeChart& chart, const QString& name, int height) {
    // In the order the window lays them out.
    for (const int i : chart.panelsInOrder()) {
        if (!chart.panelShown(i)) continue;
        const QString panel = chart.panelTitle(i) + QStringLiteral(" — ");
        report.addDrawing(height, [&chart, i, panel, name](QCPPainter* painter, int width, int h) {
            // The panel's title whole; the run's name elided in the middle to the room left.
            const QFontMetrics metrics(chart_title_font(chart.plot()));
            const int room = chart_title_room(width) - metrics.horizontalAdvance(panel);
            const QString title = panel + metrics.elidedText(name, Qt::ElideMiddle, room);
            chart.soloPanel(i);
            draw_chart(chart.plot(), painter, width, h, title);
            chart.soloPanel(std::nullopt);
        });
    }
}

}  // namespace perflab
