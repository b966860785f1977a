// SPDX-License-Identifier: MIT
#include "node_report.h"

#include <algorithm>
#include <set>

#include "format.h"

namespace perflab {

NodeTable node_table(const std::map<std::string, NodeTick>& nodes) {
    NodeTable t;
    if (nodes.empty()) return t;
    std::set<std::string> ops;
    uint64_t all_calls = 0;
    for (const auto& [name, n] : nodes) {
        for (const auto& [op, c] : n.calls)
            ops.insert(op);
        all_calls += n.total_calls();
    }
    t.header = {"node"};
    for (const auto& op : ops)
        t.header.push_back(op);
    for (const char* h : {"errors", "hits", "misses", "hit rate", "MOVED", "ASK", "share"})
        t.header.push_back(h);
    for (const auto& [name, n] : nodes) {
        std::vector<std::string> row = {name};
        for (const auto& op : ops) {
            const auto c = n.calls.find(op);
            row.push_back(std::to_string(c == n.calls.end() ? 0 : c->second));
        }
        const uint64_t lookups = n.hits + n.misses;
        row.push_back(std::to_string(n.errors));
        row.push_back(std::to_string(n.hits));
        row.push_back(std::to_string(n.misses));
        row.push_back(lookups ? format_fixed(100.0 * double(n.hits) / double(lookups), 2) + "%"
                              : "-");
        row.push_back(std::to_string(n.moved));
        row.push_back(std::to_string(n.asked));
        row.push_back(
            all_calls ? format_fixed(100.0 * double(n.total_calls()) / double(all_calls), 1) + "%"
                      : "-");
        t.rows.push_back(std::move(row));
    }
    return t;
}

std::string node_table_text(const NodeTable& table, const std::string& indent) {
    std::vector<size_t> width(table.header.size());
    for (size_t c = 0; c < width.size(); ++c) {
        width[c] = table.header[c].size();
        for (const auto& row : table.rows)
            width[c] = std::max(width[c], row[c].size());
    }
    const auto line = [&](const std::vector<std::string>& cells) {
        std::string out = indent;
        for (size_t c = 0; c < cells.size(); ++c) {
            const std::string pad(width[c] - cells[c].size(), ' ');
            // The node's name to the left, the figures to the right.
            out += c == 0 ? cells[c] + pad : "  " + pad + cells[c];
        }
        return out + "\n";
    };
    std::string out = line(table.header);
    for (const auto& row : table.rows)
        out += line(row);
    return out;
}

}  // namespace perflab
