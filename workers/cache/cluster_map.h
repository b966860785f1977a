// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace perflab {

// Redis Cluster's key space: 16384 hash slots, each served by one master.
inline constexpr size_t kClusterSlots = 16384;

// CRC16 (XMODEM) of `key`, or of its hash tag (the text between its first '{' and the next
// '}', when not empty), modulo 16384: the slot Redis Cluster keeps the key in.
uint16_t cluster_key_slot(std::string_view key) noexcept;

// Which master serves each slot: a flat array of node indexes into `nodes`. One copy per
// worker thread, updated by the MOVED replies that thread sees.
struct ClusterMap {
    std::vector<boost::asio::ip::tcp::endpoint> nodes;
    std::array<uint16_t, kClusterSlots> slot_node{};

    uint16_t node_of(uint16_t slot) const noexcept { return slot_node[slot]; }
    // The node's index, appended when the map does not know it yet.
    uint16_t node_index(const boost::asio::ip::tcp::endpoint& node);
};

// A node's name in a run's figures: "127.0.0.1:7000", "[::1]:7000".
std::string node_name(const boost::asio::ip::tcp::endpoint& node);

// A cluster's redirection: "MOVED 3999 127.0.0.1:6381" or "ASK 3999 127.0.0.1:6381" (an error
// reply's text).
struct ClusterRedirect {
    enum class Kind { moved, ask };
    Kind kind = Kind::moved;
    uint16_t slot = 0;
    boost::asio::ip::tcp::endpoint node;
};
// Empty when the text is no redirection, or names a node by anything but an IP address; a
// redirection without a host names a port of `from`, the node that answered.
std::optional<ClusterRedirect> parse_cluster_redirect(
    std::string_view text, const boost::asio::ip::tcp::endpoint& from) noexcept;

}  // namespace perflab
