// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace perflab {

// A stored moment as a person reads it in the window: UTC, as files and the CLI write it,
// and beside it the desktop's local time where that differs ("2026-12-06 09:30:00 UTC
// (10:30:00 local)"; the local date too when it is another day).
QString wall_time_text(qint64 ms_since_epoch);

}  // namespace perflab
