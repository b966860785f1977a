// SPDX-License-Identifier: MIT
#include "pdf_report.h"

#include <qcustomplot.h>

#include <QAbstractTextDocumentLayout>
#include <QFileInfo>
#include <QFontMetrics>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextDocument>
#include <algorithm>

namespace perflab {

namespace {

// The charts' own resolution: their fonts, pens and margins were chosen for it on screen.
constexpr int kDpi = 96;
constexpr double kGap = 14;     // between blocks
constexpr double kFooter = 26;  // the footer's room at the bottom of each page

const QPageLayout& page_layout() {
    static const QPageLayout layout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                    QMarginsF(15, 14, 15, 10), QPageLayout::Millimeter);
    return layout;
}

QRect paint_rect() {
    return page_layout().paintRectPixels(kDpi);
}

// The room blocks have on a page: the paint rect above the footer.
double body_height() {
    return paint_rect().height() - kFooter;
}

// Headings sized for a page, not a screen; the caller's style follows and may override.
const char* const kBaseStyle =
    "h1{font-size:15pt} h2{font-size:11.5pt} h3{font-size:10pt} "
    "table{border-collapse:collapse} pre{font-size:7.5pt}";
// After the caller's: cells padded for a screen squeezed a dozen columns into the page's width
// by breaking their headings inside words.
const char* const kTableStyle = "td,th{padding:1px 4px;font-size:8pt}";

// The height a split text takes on its last page.
double last_part_height(const QTextDocument& text, double body) {
    const QRectF last = text.documentLayout()->blockBoundingRect(text.lastBlock());
    return last.bottom() - body * (text.pageCount() - 1);
}

}  // namespace

PdfReport::PdfReport(QString title, QString styleSheet)
    : title_(std::move(title)),
      styleSheet_(QString::fromLatin1(kBaseStyle) + styleSheet + QString::fromLatin1(kTableStyle)) {
}

PdfReport::~PdfReport() = default;

int PdfReport::width() const {
    return paint_rect().width();
}

void PdfReport::addText(const QString& html, bool keepWithNext) {
    auto text = std::make_unique<QTextDocument>();
    text->setDocumentMargin(0);
    text->setDefaultFont(QFont(QFont().family(), 9));
    text->setDefaultStyleSheet(styleSheet_);
    text->setHtml(html);
    text->setTextWidth(width());
    const double height = text->size().height();
    // Taller than a page: paginated by the text's own layout, which moves a line or a table
    // row that would cross a page's end to the next page.
    if (height > body_height()) text->setPageSize(QSizeF(width(), body_height()));
    blocks_.push_back({std::move(text), {}, height, keepWithNext});
}

void PdfReport::addDrawing(int height, Draw draw) {
    blocks_.push_back({nullptr, std::move(draw), std::min<double>(height, body_height()), false});
}

std::vector<PdfReport::Slot> PdfReport::layout(int* pages) const {
    const double body = body_height();
    std::vector<Slot> placed;
    int page = 0;
    double y = 0;
    for (size_t i = 0; i < blocks_.size(); ++i) {
        const Block& b = blocks_[i];
        if (b.height > body) {
            if (y > 0) ++page;
            const int parts = b.text->pageCount();
            for (int part = 0; part < parts; ++part)
                placed.push_back({&b, page + part, 0, part});
            page += parts - 1;
            y = last_part_height(*b.text, body) + kGap;
            continue;
        }
        double need = b.height;
        if (b.keepWithNext && i + 1 < blocks_.size() && blocks_[i + 1].height <= body)
            need += kGap + blocks_[i + 1].height;
        if (y > 0 && y + need > body) {
            ++page;
            y = 0;
        }
        placed.push_back({&b, page, y, 0});
        y += b.height + kGap;
    }
    *pages = page + 1;
    return placed;
}

bool PdfReport::write(const QString& path, QString* error) const {
    int pages = 0;
    const std::vector<Slot> placed = layout(&pages);
    QPdfWriter pdf(path);
    pdf.setPageLayout(page_layout());
    pdf.setResolution(kDpi);
    pdf.setTitle(title_);
    pdf.setCreator(QStringLiteral("PerfLab"));
    QCPPainter painter;
    if (!painter.begin(&pdf)) {
        *error = QObject::tr("cannot write %1").arg(path);
        return false;
    }
    const double body = body_height();
    const int w = width();
    QFont footerFont(QFont().family(), 7);
    auto slot = placed.begin();
    for (int page = 0; page < pages; ++page) {
        if (page > 0) pdf.newPage();
        for (; slot != placed.end() && slot->page == page; ++slot) {
            painter.save();
            painter.translate(0, slot->y);
            if (QTextDocument* text = slot->block->text.get()) {
                painter.translate(0, -body * slot->part);
                text->drawContents(&painter, QRectF(0, body * slot->part, w, body));
            } else {
                slot->block->draw(&painter, w, int(slot->block->height));
            }
            painter.restore();
        }
        painter.setPen(QPen(Qt::gray, 0.5));
        painter.drawLine(QPointF(0, body + kFooter / 3), QPointF(w, body + kFooter / 3));
        painter.setFont(footerFont);
        painter.setPen(Qt::darkGray);
        const QRectF footer(0, body + kFooter / 3 + 2, w, kFooter * 2 / 3 - 2);
        const QString number = QObject::tr("page %1 of %2").arg(page + 1).arg(pages);
        const int room = w - QFontMetrics(footerFont).horizontalAdvance(number) - 24;
        painter.drawText(footer, Qt::AlignLeft | Qt::AlignVCenter,
                         QFontMetrics(footerFont).elidedText(title_, Qt::ElideMiddle, room));
        painter.drawText(footer, Qt::AlignRight | Qt::AlignVCenter, number);
    }
    if (!painter.end() || QFileInfo(path).size() == 0) {
        *error = QObject::tr("cannot write %1").arg(path);
        return false;
    }
    return true;
}

}  // namespace perflab
