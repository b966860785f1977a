// SPDX-License-Identifier: MIT
#include "graph_values.h"

#include <qcustomplot.h>

#include <cmath>

namespace perflab {

double value_nearest(const QCPGraph& graph, double key) {
    const auto data = graph.data();
    if (data->isEmpty()) return NAN;
    auto at = data->findBegin(key, false);  // the first point at or after key
    if (at == data->constEnd()) return (at - 1)->value;
    if (at != data->constBegin() && key - (at - 1)->key < at->key - key) --at;
    return at->value;
}

}  // namespace perflab
