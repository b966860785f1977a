// SPDX-License-Identifier: MIT
#pragma once

#include <QFrame>

class QLabel;

namespace perflab {

// One current figure with its caption, e.g. "p99 latency / 1.24ms".
class StatTile : public QFrame {
    Q_OBJECT
  public:
    explicit StatTile(const QString& caption, QWidget* parent = nullptr);
    void setValue(const QString& value);
    QString value() const;

  private:
    QLabel* value_;
};

}  // namespace perflab
