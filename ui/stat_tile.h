// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>

namespace perflab {

class TickText;

// One current figure with its caption, e.g. "p99 latency / 1.24ms".
class StatTile : public QFrame {
    Q_OBJECT
  public:
    explicit StatTile(const QString& caption, QWidget* parent = nullptr);
    void setValue(const QString& value);
    QString value() const;

  private:
    TickText* value_;
};

}  // namespace perflab
