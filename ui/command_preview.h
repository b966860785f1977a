// SPDX-License-Identifier: MIT
#pragma once

#include <QPlainTextEdit>
#include <cstdint>

#include "model/spec.h"

namespace perflab {

// Each of cache.commands with its share of the ops and one op as a one-thread run with `seed`
// sends it, rendered by the engine's own compiled commands (cache/command_program.h): its
// words as Redis gets them, a long or binary one as its size ("‹312 B›"). Empty without
// commands.
QString render_commands(const CacheSpec& cache, uint64_t seed);

// Read-only, as the request preview is.
class CommandPreview : public QPlainTextEdit {
    Q_OBJECT
  public:
    explicit CommandPreview(QWidget* parent = nullptr);
    void preview(const CacheSpec* cache, uint64_t seed);
};

}  // namespace perflab
