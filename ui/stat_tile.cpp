// SPDX-License-Identifier: MIT
#include "stat_tile.h"

#include <QLabel>
#include <QVBoxLayout>

#include "tick_text.h"

namespace perflab {

StatTile::StatTile(const QString& caption, QWidget* parent)
    : QFrame(parent), value_(new TickText(this)) {
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    auto* label = new QLabel(caption, this);
    label->setStyleSheet(QStringLiteral("color: palette(mid); font-size: 9pt;"));
    value_->setStyleSheet(QStringLiteral("font-size: 15pt; font-weight: 600;"));
    value_->setText(QStringLiteral("–"));
    layout->addWidget(label);
    layout->addWidget(value_);
}

void StatTile::setValue(const QString& value) {
    value_->setText(value);
}

QString StatTile::value() const {
    return value_->text();
}

}  // namespace perflab
