// SPDX-License-Identifier: MIT
#pragma once

class QCPGraph;

namespace perflab {

// The value of the graph's point whose key is nearest `key` (NaN for an empty graph): what a
// tooltip at the pointer shows.
double value_nearest(const QCPGraph& graph, double key);

}  // namespace perflab
