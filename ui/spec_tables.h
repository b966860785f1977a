// SPDX-License-Identifier: MIT
#pragma once

class QWidget;

namespace perflab {

class RowTable;

// The spec's lists as editable tables, each with its JSON mapping.
RowTable* make_phase_table(QWidget* parent);  // "phases"
// The phases table's last column: what a phase holds beside its schedule, as JSON.
constexpr int kPhaseWorkloadColumn = 5;
// "http.targets"; its hidden column holds the JSON of the keys TargetDetails edits.
RowTable* make_target_table(QWidget* parent);
constexpr int kTargetDetailsColumn = 6;
// "http.session": a step's target index, think time and capture.
RowTable* make_session_table(QWidget* parent);
RowTable* make_probe_table(QWidget* parent);  // "probes"
RowTable* make_agent_table(QWidget* parent);  // "agents"
// "cache.commands": a Redis command line, its weight and its op's name.
RowTable* make_command_table(QWidget* parent);

}  // namespace perflab
