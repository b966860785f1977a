// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>

#include "spec.h"

namespace perflab {

// The spec as it runs: its own seed, or one drawn now, so the stored spec repeats the run's
// random streams exactly. Drawn seeds stay below 2^53, which every JSON reader (JavaScript,
// Qt's QJsonValue) keeps exact; a seed given in the spec may use all 64 bits.
RunSpec with_seed(RunSpec spec);

// The seed of one random stream of a run: the run's seed mixed with the stream's owner (a
// worker or connection index) and its purpose, so no two streams of a run are alike.
enum class Stream : uint64_t { keys = 1, values = 2, templates = 3, think = 4 };
uint64_t stream_seed(uint64_t run_seed, uint64_t owner, Stream stream) noexcept;

}  // namespace perflab
