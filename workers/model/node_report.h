// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sample.h"

namespace perflab {

// A Redis Cluster run's nodes as rows, for every report: the node, its calls per op (each op
// any node answered), its error replies, hits, misses and hit rate, the MOVED and ASK it
// replied, and its share of all the nodes' calls. No rows for a run without nodes.
struct NodeTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};
NodeTable node_table(const std::map<std::string, NodeTick>& nodes);

// The table as aligned text, each line after `indent`.
std::string node_table_text(const NodeTable& table, const std::string& indent);

}  // namespace perflab
