// SPDX-License-Identifier: MIT
#include "cluster_map.h"

#include <charconv>

namespace perflab {

namespace {

constexpr std::array<uint16_t, 256> make_crc16_table() {
    std::array<uint16_t, 256> table{};
    for (uint32_t i = 0; i < 256; ++i) {
        uint32_t crc = i << 8;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 0x8000) ? (crc << 1) ^ 0x1021 : crc << 1;
        table[i] = uint16_t(crc);
    }
    return table;
}

constexpr std::array<uint16_t, 256> kCrc16 = make_crc16_table();

uint16_t crc16(std::string_view data) noexcept {
    uint16_t crc = 0;
    for (const char c : data)
        crc = uint16_t(crc << 8) ^ kCrc16[((crc >> 8) ^ uint8_t(c)) & 0xff];
    return crc;
}

template <class T>
bool to_number(std::string_view s, T& out) noexcept {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

}  // namespace

uint16_t cluster_key_slot(std::string_view key) noexcept {
    if (const size_t open = key.find('{'); open != std::string_view::npos) {
        const size_t close = key.find('}', open + 1);
        if (close != std::string_view::npos && close > open + 1)
            key = key.substr(open + 1, close - open - 1);
    }
    return crc16(key) & (kClusterSlots - 1);
}

uint16_t ClusterMap::node_index(const boost::asio::ip::tcp::endpoint& node) {
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i] == node) return uint16_t(i);
    nodes.push_back(node);
    return uint16_t(nodes.size() - 1);
}

std::string node_name(const boost::asio::ip::tcp::endpoint& node) {
    const auto address = node.address();
    const std::string host =
        address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    return host + ":" + std::to_string(node.port());
}

std::optional<ClusterRedirect> parse_cluster_redirect(
    std::string_view text, const boost::asio::ip::tcp::endpoint& from) noexcept {
    ClusterRedirect r;
    if (text.starts_with("MOVED ")) {
        text.remove_prefix(6);
    } else if (text.starts_with("ASK ")) {
        r.kind = ClusterRedirect::Kind::ask;
        text.remove_prefix(4);
    } else {
        return std::nullopt;
    }
    const size_t space = text.find(' ');
    const size_t colon = text.rfind(':');
    if (space == std::string_view::npos || colon == std::string_view::npos || colon < space)
        return std::nullopt;
    uint16_t port = 0;
    if (!to_number(text.substr(0, space), r.slot) || r.slot >= kClusterSlots ||
        !to_number(text.substr(colon + 1), port))
        return std::nullopt;
    std::string_view host = text.substr(space + 1, colon - space - 1);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    // No host: the node that answered, at another port (Redis' "unknown-endpoint").
    if (host.empty()) {
        r.node = {from.address(), port};
        return r;
    }
    // An address's text is short; a longer "host" is no address, and no name is resolved here.
    char buf[64];
    if (host.size() >= sizeof buf) return std::nullopt;
    host.copy(buf, host.size());
    buf[host.size()] = '\0';
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(buf, ec);
    if (ec) return std::nullopt;
    r.node = {address, port};
    return r;
}

}  // namespace perflab
