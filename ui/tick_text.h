// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>
#include <QString>

namespace perflab {

// Text that changes every tick (a tile's figure, the phase line, the generator banner) and
// repaints only itself. A QLabel given a new text asks its layout to run again, which asks its
// parent's, up to the tab widget, which then repaints the whole window: a second full paint of
// the window each tick, a fifth of the GUI thread's CPU during a run. This one asks for a new
// layout only when its text needs more room than it had: never (`elide`: what does not fit is
// elided), when it is wider than any before (`grow`, which never shrinks below that, up to a
// few dozen characters: no text widens the window past the screen), or when its wrapped lines
// are more or fewer (`wrap`). Style sheets apply as to a QFrame (background, border, padding).
class TickText : public QFrame {
  public:
    enum class Overflow { elide, grow, wrap };
    explicit TickText(QWidget* parent = nullptr, Overflow overflow = Overflow::elide);

    const QString& text() const { return text_; }
    void setText(const QString& text);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return overflow_ == Overflow::wrap; }
    int heightForWidth(int width) const override;

  protected:
    void paintEvent(QPaintEvent* event) override;

  private:
    int advance(const QString& text) const;
    int textHeight(const QString& text, int width) const;

    Overflow overflow_;
    QString text_;
    QString widest_;  // `grow`: the widest text so far, measured in the font of the moment
};

}  // namespace perflab
