// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <nlohmann/json.hpp>
#include <vector>

#include "row_table.h"

namespace perflab {

// A probe as a row of the form's probes table: a cell for each key a user fills (a prometheus
// probe's URL, selectors, interval and via; a process probe's pid or match and top threads),
// every other key in "more" as JSON. The spec's keys go through unchanged: a probe whose keys
// the cells cannot give back as they were (a selector list that is not one) is kept whole in
// "more", for the spec's check to name.
enum ProbeColumn : int {
    kProbeType,
    kProbeTarget,
    kProbeKey,
    kProbePerCore,
    kProbeProcess,  // a jvm or process probe's pid or match
    kProbeMetrics,
    kProbeInterval,
    kProbeTop,
    kProbeVia,
    kProbeMore,
    kProbeColumns
};

std::vector<RowTable::Column> probe_columns();
nlohmann::json probe_row_json(const QStringList& cells);
QStringList probe_row_cells(const nlohmann::json& probe);

// A prometheus probe's selectors in one cell, comma-separated: split at the commas outside
// braces and quotes, as no selector has one there (`up, x{a="1",b!~"x,y"}` is two).
QStringList split_selectors(const QString& text);

}  // namespace perflab
