// SPDX-License-Identifier: MIT
#include "compare_report.h"

#include <QStringList>

#include "compare_figures.h"
#include "run_report.h"

namespace perflab {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString run_title(const RunInfo& r) {
    return QStringLiteral("#%1 %2").arg(r.id).arg(qs(r.name));
}

const char* kMachinesWarning =
    "The runs ran on different machines: differences may come from the hardware, not the "
    "change under test.";

// Markdown table cells cannot hold a bare pipe.
QString md(QString s) {
    return s.replace(QLatin1Char('|'), QStringLiteral("\\|"));
}

void md_row(QString& out, const QStringList& cells) {
    QStringList escaped;
    for (const QString& c : cells)
        escaped << md(c);
    out += QStringLiteral("| ") + escaped.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
}

void md_differences(QString& out, const QString& title, const Comparison& c,
                    const std::vector<Comparison::Difference>& ds) {
    out += QStringLiteral("\n## ") + title + QStringLiteral("\n\n");
    if (ds.empty()) {
        out += QStringLiteral("None.\n");
        return;
    }
    QStringList head{QStringLiteral("field")};
    for (const auto& r : c.runs)
        head << run_title(r);
    md_row(out, head);
    md_row(out, QStringList(head.size(), QStringLiteral("---")));
    for (const auto& d : ds) {
        QStringList row{QStringLiteral("`") + qs(d.field) + QStringLiteral("`")};
        for (const auto& v : d.values)
            row << qs(v);
        md_row(out, row);
    }
}

QString esc(const QString& s) {
    return s.toHtmlEscaped();
}

void html_differences(QString& out, const QString& title, const Comparison& c,
                      const std::vector<Comparison::Difference>& ds) {
    out += QStringLiteral("<h2>") + esc(title) + QStringLiteral("</h2>\n");
    if (ds.empty()) {
        out += QStringLiteral("<p>None.</p>\n");
        return;
    }
    out += QStringLiteral("<table>\n<tr><th>field</th>");
    for (const auto& r : c.runs)
        out += QStringLiteral("<th>") + esc(run_title(r)) + QStringLiteral("</th>");
    out += QStringLiteral("</tr>\n");
    for (const auto& d : ds) {
        out += QStringLiteral("<tr><td><code>") + esc(qs(d.field)) + QStringLiteral("</code></td>");
        for (size_t i = 0; i < d.values.size(); ++i)
            out +=
                QStringLiteral("<td class=\"%1\">")
                    .arg(d.values[i] != d.values.front() ? QStringLiteral("differs") : QString()) +
                esc(qs(d.values[i])) + QStringLiteral("</td>");
        out += QStringLiteral("</tr>\n");
    }
    out += QStringLiteral("</table>\n");
}

}  // namespace

QString comparison_markdown(const Comparison& c, const std::vector<ReportChart>& images) {
    QString out = QStringLiteral("# PerfLab comparison\n\n");
    for (const auto& r : c.runs)
        out +=
            QStringLiteral("- **%1** — %2, %3, started %4\n")
                .arg(md(run_title(r)), qs(r.kind), qs(r.status), qs(format_wall(r.started_at_ms)));
    if (c.different_machines)
        out += QStringLiteral("\n> **Warning:** ") + QString::fromLatin1(kMachinesWarning) +
               QLatin1Char('\n');
    out += QStringLiteral(
        "\n## Key figures\n\nChanges against the first run; [lo, hi] is the 95% interval of a "
        "change, and a change is better or worse only beyond the noise and the threshold.\n\n");
    QStringList head{QStringLiteral("figure")};
    for (const auto& r : c.runs)
        head << run_title(r);
    md_row(out, head);
    md_row(out, QStringList(head.size(), QStringLiteral("---")));
    for (const auto& f : c.figures) {
        QStringList row{figure_label(f.name)};
        for (size_t i = 0; i < f.values.size(); ++i)
            row << cell_text(f, i);
        md_row(out, row);
    }
    for (const auto& image : images)
        out += QStringLiteral("\n## ") + qs(image.title) + QStringLiteral("\n\n![") +
               qs(image.title) + QStringLiteral("](") + qs(image.path) + QStringLiteral(")\n");
    md_differences(out, QStringLiteral("Spec differences"), c, c.spec_differences);
    md_differences(out, QStringLiteral("Machine differences"), c, c.hardware_differences);
    return out;
}

ComparisonHtml comparison_html_parts(const Comparison& c) {
    ComparisonHtml parts;
    parts.style = QStringLiteral(
        "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}"
        "td:first-child{text-align:left}.better{background:#c6efce}.worse{background:#ffc7ce}"
        ".differs{background:#fff2a8}.warning{background:#fff2a8;border:1px solid #e0b000;"
        "padding:8px}img{max-width:100%}");
    parts.runs = QStringLiteral("<h1>PerfLab comparison</h1>\n<ul>\n");
    for (const auto& r : c.runs)
        parts.runs += QStringLiteral("<li><b>%1</b> — %2, %3, started %4</li>\n")
                          .arg(esc(run_title(r)), esc(qs(r.kind)), esc(qs(r.status)),
                               esc(qs(format_wall(r.started_at_ms))));
    parts.runs += QStringLiteral("</ul>\n");
    if (c.different_machines)
        parts.runs += QStringLiteral("<p class=\"warning\"><b>Warning:</b> ") +
                      esc(QString::fromLatin1(kMachinesWarning)) + QStringLiteral("</p>\n");
    QString& out = parts.figures;
    out = QStringLiteral(
        "<h2>Key figures</h2>\n<p>Changes against the first run; [lo, hi] is the 95% interval "
        "of a change, coloured only when it is better or worse beyond the noise and the "
        "threshold, or, for a Prometheus series, which has no better way, when it differs beyond "
        "the threshold.</p>\n<table>\n"
        "<tr><th>figure</th>");
    for (const auto& r : c.runs)
        out += QStringLiteral("<th>") + esc(run_title(r)) + QStringLiteral("</th>");
    out += QStringLiteral("</tr>\n");
    for (const auto& f : c.figures) {
        out += QStringLiteral("<tr><td>") + esc(figure_label(f.name)) + QStringLiteral("</td>");
        for (size_t i = 0; i < f.values.size(); ++i) {
            const Change change = cell_change(f, i);
            const QString cls = change == Change::better    ? QStringLiteral("better")
                                : change == Change::worse   ? QStringLiteral("worse")
                                : change == Change::differs ? QStringLiteral("differs")
                                                            : QString();
            out += QStringLiteral("<td class=\"%1\">").arg(cls) + esc(cell_text(f, i)) +
                   QStringLiteral("</td>");
        }
        out += QStringLiteral("</tr>\n");
    }
    out += QStringLiteral("</table>\n");
    html_differences(parts.specDifferences, QStringLiteral("Spec differences"), c,
                     c.spec_differences);
    html_differences(parts.machineDifferences, QStringLiteral("Machine differences"), c,
                     c.hardware_differences);
    return parts;
}

QString comparison_html(const Comparison& c, const std::vector<ReportChart>& images) {
    const ComparisonHtml parts = comparison_html_parts(c);
    QString out = QStringLiteral(
                      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>PerfLab "
                      "comparison</title>\n<style>") +
                  parts.style + QStringLiteral("</style></head><body>\n") + parts.runs +
                  parts.figures;
    for (const auto& image : images)
        out += QStringLiteral("<h2>%1</h2>\n<img src=\"%2\" alt=\"%1\">\n")
                   .arg(esc(qs(image.title)), esc(qs(image.path)));
    return out + parts.specDifferences + parts.machineDifferences +
           QStringLiteral("</body></html>\n");
}

}  // namespace perflab
