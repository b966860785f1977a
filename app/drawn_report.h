// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <string>

namespace perflab {

// `perflab export ID --format pdf|html [-o FILE]`: the report the desktop's export writes
// (run facts, the spec, hardware, tables, charts, events), the charts drawn by Qt on an
// offscreen platform, so it needs no display: one implementation for both front-ends. A PDF
// needs FILE (".pdf" added when it has no extension); HTML, one self-contained file with the
// charts inline, goes to stdout without one. Returns the CLI's exit code.
int export_drawn_report(const std::string& db_path, int64_t id, std::string output,
                        const std::string& format);

}  // namespace perflab
