// SPDX-License-Identifier: MIT
#include "tick_text.h"

#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace perflab {

namespace {

constexpr int kUnbounded = 1 << 20;
constexpr int kGrowRoom = 36;  // characters

}  // namespace

TickText::TickText(QWidget* parent, Overflow overflow) : QFrame(parent), overflow_(overflow) {
    QSizePolicy policy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    if (overflow == Overflow::grow) policy.setHorizontalPolicy(QSizePolicy::Preferred);
    if (overflow == Overflow::wrap) {
        policy = QSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
        policy.setHeightForWidth(true);
    }
    setSizePolicy(policy);
}

void TickText::setText(const QString& text) {
    if (text == text_) return;
    bool relayout = false;
    if (overflow_ == Overflow::grow) {
        relayout = advance(text) > advance(widest_);
        if (relayout) widest_ = text;
    } else if (overflow_ == Overflow::wrap) {
        const int width = contentsRect().width();
        relayout = width <= 0 || textHeight(text, width) != textHeight(text_, width);
    }
    text_ = text;
    if (relayout) updateGeometry();
    update();
}

// Rounded up: a text drawn in the room its rounded advance gave it could be elided.
int TickText::advance(const QString& text) const {
    return int(std::ceil(QFontMetricsF(font()).horizontalAdvance(text)));
}

int TickText::textHeight(const QString& text, int width) const {
    if (overflow_ == Overflow::elide) return fontMetrics().height();
    return fontMetrics()
        .boundingRect(QRect(0, 0, std::max(width, 1), kUnbounded), Qt::TextWordWrap, text)
        .height();
}

QSize TickText::sizeHint() const {
    const QMargins m = contentsMargins();
    const int width = advance(overflow_ == Overflow::grow ? widest_ : text_);
    return {width + m.left() + m.right(), fontMetrics().height() + m.top() + m.bottom()};
}

// `grow` keeps the room of its widest text up to kGrowRoom characters (a phase line with its
// planned rate fits); past that, and for the others, a text is elided rather than widen the
// window past the screen.
QSize TickText::minimumSizeHint() const {
    const QMargins m = contentsMargins();
    const int room = overflow_ == Overflow::grow
                         ? std::min(advance(widest_), kGrowRoom * fontMetrics().averageCharWidth())
                         : 0;
    return {room + m.left() + m.right(), fontMetrics().height() + m.top() + m.bottom()};
}

int TickText::heightForWidth(int width) const {
    const QMargins m = contentsMargins();
    return textHeight(text_, width - m.left() - m.right()) + m.top() + m.bottom();
}

void TickText::paintEvent(QPaintEvent* event) {
    QFrame::paintEvent(event);
    QPainter painter(this);
    painter.setPen(palette().color(foregroundRole()));
    const QRect area = contentsRect();
    if (overflow_ == Overflow::wrap)
        painter.drawText(area, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, text_);
    else if (advance(text_) <= area.width())
        painter.drawText(area, Qt::AlignLeft | Qt::AlignVCenter, text_);
    else
        painter.drawText(area, Qt::AlignLeft | Qt::AlignVCenter,
                         fontMetrics().elidedText(text_, Qt::ElideRight, area.width()));
}

}  // namespace perflab
