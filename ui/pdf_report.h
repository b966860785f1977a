// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <functional>
#include <memory>
#include <vector>

class QCPPainter;
class QTextDocument;

namespace perflab {

// An A4 report written with QPdfWriter: blocks laid out top to bottom, each either rich text
// (an HTML fragment laid out at the page's width) or a drawing (a chart, painted as vector
// graphics). A block that fits on a page is never split: it goes whole to the next page; a
// taller one starts a page and is split between lines and table rows. Every page ends with
// the document's title and "page N of M". Lengths are in pixels at 96 ppi, as a chart on
// screen, so a chart and its fonts keep the proportions they have there.
class PdfReport {
  public:
    // Paints a drawing in [0, width) × [0, height) of the painter's coordinates.
    using Draw = std::function<void(QCPPainter* painter, int width, int height)>;

    explicit PdfReport(QString title, QString styleSheet = {});
    ~PdfReport();
    PdfReport(const PdfReport&) = delete;
    PdfReport& operator=(const PdfReport&) = delete;

    // `keepWithNext`: on the page of the block after it (a heading over the first chart).
    void addText(const QString& html, bool keepWithNext = false);
    // At the page's width; a height over the page's is cut to it.
    void addDrawing(int height, Draw draw);
    // The width every block is laid out at.
    int width() const;

    // Lays the blocks out and writes them; false with `error` set when the file is not written.
    bool write(const QString& path, QString* error) const;

  private:
    struct Block {
        std::unique_ptr<QTextDocument> text;  // or
        Draw draw;
        double height = 0;
        bool keepWithNext = false;
    };
    // Where a block, or a page's share of a block taller than a page, goes.
    struct Slot {
        const Block* block;
        int page;
        double y;
        int part;  // the block's own page, for text split across pages
    };
    std::vector<Slot> layout(int* pages) const;

    QString title_;
    QString styleSheet_;
    std::vector<Block> blocks_;
};

}  // namespace perflab
