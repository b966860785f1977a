// SPDX-License-Identifier: MIT
#pragma once

class QWidget;

namespace perflab {

class RowTable;

// The spec's lists as editable tables, each with its JSON mapping.
RowTable* make_phase_table(QWidget* parent);   // "phases"
RowTable* make_target_table(QWidget* parent);  // "http.targets"
RowTable* make_probe_table(QWidget* parent);   // "probes"
RowTable* make_agent_table(QWidget* parent);   // "agents"

}  // namespace perflab
