// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QString>
#include <string>

namespace perflab {

// Whether a change of a key figure is good news: more throughput, hits or successes is
// better; more latency or errors is worse; the others (duration, bytes) only differ.
enum class Change { better, worse, neutral };
Change judge(const std::string& figure, double delta_pct);
QColor change_color(Change change);  // a light cell background

QString figure_label(const std::string& figure);            // "p99 latency"
QString figure_value(const std::string& figure, double v);  // "1.52 ms", "97.10%", "-"
QString delta_text(double delta_pct);                       // "+12.3%", "" when undefined

}  // namespace perflab
