// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace perflab {

struct RunSummary;

// A finished run's answer in a few lines of rich text, like k6's end-of-test summary: its
// status, length and key figures over the whole run (not its last tick's); its SLO verdict with
// every check; a search's max rate and the check that stopped it.
QString run_answer_html(const RunSummary& summary);

}  // namespace perflab
