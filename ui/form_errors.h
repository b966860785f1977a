// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <string>
#include <vector>

namespace perflab {

struct SpecError;

// Error paths into one of the form's tables: "phases[2].rate" with prefix "phases" gives row
// 2 and rest ".rate".
bool table_path(const std::string& path, const std::string& prefix, int* row, std::string* rest);

// An error about row `row` (from 0) of a table as the form numbers its rows, from 1:
// "target 2, expect.status: …" for "http.targets[1].expect.status: …".
QString row_error(const QString& noun, int row, const std::string& rest,
                  const std::string& message);

// A validator's error as the form shows it, counting from 1 as the form does: a table's row
// ("phases[0].rate: …" reads "phase 1, rate: …") and an item of one of the `lists`, the
// comma-separated fields ("cache.servers[1]: …" reads "cache.servers, item 2: …"); anything
// else as the validator wrote it.
QString form_error_text(const SpecError& error, const std::vector<std::string>& lists);

}  // namespace perflab
