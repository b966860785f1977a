// SPDX-License-Identifier: MIT
#pragma once

#include <QSharedPointer>
#include <QString>

class QCPAxis;
class QCPAxisTicker;

namespace perflab {

// What a value axis counts: plain quantities get SI suffixes (60k, 1.2M), durations in
// milliseconds read as time (250µs, 12ms, 1.5s); bytes are ticked as counts and read in
// 1024-based units where a value is shown alone (a tooltip: 1.50 GiB).
enum class AxisUnit { count, milliseconds, bytes };

QString compact_count(double value);
QString compact_ms(double ms);
QString binary_bytes(double bytes);  // 512 B, 1.50 KiB, 118 MiB

// A ticker for a value axis, linear or logarithmic, labelling in `unit`.
QSharedPointer<QCPAxisTicker> compact_ticker(AxisUnit unit, bool log);

// Asks `axis`' ticker for as many ticks as its axis rect's height holds with room between
// the labels; true when that changed the count (the axis' ticks must be made again).
bool fit_tick_count(QCPAxis* axis);

}  // namespace perflab
