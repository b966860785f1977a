// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QString>
#include <string>

#include "run_compare.h"

namespace perflab {

// A change the statistics called better or worse, or (a Prometheus series, which has no better
// way) beyond the threshold; every other is neutral.
enum class Change { better, worse, differs, neutral };
QColor change_color(Change change);  // a light cell background

QString figure_label(const std::string& figure);            // "p99 latency"
QString figure_value(const std::string& figure, double v);  // "1.52 ms", "97.10%", "-"
QString delta_text(double delta_pct);                       // "+12.3%", "" when undefined

// A table cell of a comparison: the value and, after the first side, its change — for a
// figure statistics judge with its 95% interval ("31.0 ms (+3.2% [+1.1, +5.0])", a
// fraction's in points), and "too few ticks" where there can be no verdict.
QString cell_text(const Comparison::Figure& f, size_t side);
// A cell is coloured by its figure's verdict only, as the CLI judges: a figure the statistics
// do not judge (bytes, max latency) and a change within the noise are not coloured.
Change cell_change(const Comparison::Figure& f, size_t side);

}  // namespace perflab
