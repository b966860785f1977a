// SPDX-License-Identifier: MIT
#pragma once

#include <QSharedPointer>
#include <QString>

class QCPAxis;
class QCPAxisTicker;

namespace perflab {

// What a value axis counts: plain quantities get SI suffixes (60k, 1.2M), durations in
// milliseconds read as time (250µs, 12ms, 1.5s).
enum class AxisUnit { count, milliseconds };

QString compact_count(double value);
QString compact_ms(double ms);

// A ticker for a value axis, linear or logarithmic, labelling in `unit`.
QSharedPointer<QCPAxisTicker> compact_ticker(AxisUnit unit, bool log);

// Asks `axis`' ticker for as many ticks as its axis rect's height holds with room between
// the labels; true when that changed the count (the axis' ticks must be made again).
bool fit_tick_count(QCPAxis* axis);

}  // namespace perflab
