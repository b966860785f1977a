// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>
#include <QWidget>
#include <vector>

#include "model/sample.h"

namespace perflab {

class TickText;

// One tile per agent in the live view of a run that agents send: its ops/s, CPU and late
// sends in the last tick, and its state (sending, behind, lost). Hidden for a run without
// agents.
class AgentTiles : public QWidget {
    Q_OBJECT
  public:
    explicit AgentTiles(QWidget* parent = nullptr);

    void begin();
    // The tick's agents; returns why one of them is the limit of the load (its CPU near full,
    // or over 1% of its sends late), or an empty string.
    QString update(const std::vector<AgentTick>& agents, double seconds);

    int count() const { return int(tiles_.size()); }
    QString text(int agent) const;  // the tile's caption and value, for tests and tooltips

  private:
    struct Tile {
        QLabel* caption;
        TickText* value;
        bool warning = false;
    };
    Tile& tile(size_t index, const QString& host);
    static void warn(Tile& t, bool warning);

    std::vector<Tile> tiles_;
};

}  // namespace perflab
