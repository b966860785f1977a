// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace perflab {

// `perflab export ID --format pdf -o FILE`: the report the desktop's export writes (run facts,
// the spec, hardware, tables, charts, events), laid out by Qt on an offscreen platform, so it
// needs no display. FILE gets ".pdf" when it has no extension. Returns the CLI's exit code.
int export_pdf_report(const std::string& db_path, int64_t id, std::string output);

}  // namespace perflab
