// SPDX-License-Identifier: MIT
#include "compare_pdf.h"

#include <QObject>

#include "compare_report.h"
#include "pdf_charts.h"
#include "pdf_report.h"

namespace perflab {

bool write_comparison_pdf(const Comparison& c, TimeChart& overTime, QCustomPlot* percentiles,
                          const QString& runs, const QString& path, QString* error) {
    const ComparisonHtml parts = comparison_html_parts(c);
    PdfReport pdf(QObject::tr("PerfLab comparison: %1").arg(runs), parts.style);
    pdf.addText(parts.runs);
    pdf.addText(parts.figures);
    pdf.addText(QStringLiteral("<h2>%1</h2>").arg(QObject::tr("Charts")), true);
    add_pdf_panels(pdf, overTime, runs);
    add_pdf_chart(pdf, percentiles, QObject::tr("Latency distribution — %1").arg(runs),
                  2 * kPdfPanelHeight);
    pdf.addText(parts.specDifferences);
    pdf.addText(parts.machineDifferences);
    return pdf.write(path, error);
}

}  // namespace perflab
