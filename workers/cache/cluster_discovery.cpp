// SPDX-License-Identifier: MIT
#include "cluster_discovery.h"

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <charconv>
#include <functional>
#include <stdexcept>
#include <string>

#include "resp_codec.h"

namespace perflab {

namespace asio = boost::asio;
using asio::ip::tcp;

namespace {

// A whole RESP2 reply, as a tree: the few replies read at start, not the run's.
struct RespValue {
    char type = '+';
    std::string text;  // simple, error, bulk
    int64_t integer = 0;
    bool null = false;
    std::vector<RespValue> items;
};

bool to_i64(std::string_view s, int64_t& out) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

// Reads one value from data at pos: false while it is incomplete; throws when it is not RESP.
bool parse_value(std::string_view data, size_t& pos, RespValue& out, int depth = 0) {
    const size_t eol = data.find("\r\n", pos);
    if (eol == std::string_view::npos) return false;
    if (eol == pos || depth > 8) throw std::runtime_error("not a RESP reply");
    out.type = data[pos];
    const std::string_view line = data.substr(pos + 1, eol - pos - 1);
    size_t at = eol + 2;
    int64_t n = 0;
    switch (out.type) {
        case '+':
        case '-':
            out.text = line;
            break;
        case ':':
            if (!to_i64(line, out.integer)) throw std::runtime_error("not a RESP integer");
            break;
        case '$':
            if (!to_i64(line, n) || n < -1) throw std::runtime_error("not a RESP bulk string");
            if (n == -1) {
                out.null = true;
                break;
            }
            if (data.size() < at + size_t(n) + 2) return false;
            out.text = data.substr(at, size_t(n));
            at += size_t(n) + 2;
            break;
        case '*':
            if (!to_i64(line, n) || n < -1) throw std::runtime_error("not a RESP array");
            out.null = n == -1;
            for (int64_t i = 0; i < n; ++i) {
                out.items.emplace_back();
                if (!parse_value(data, at, out.items.back(), depth + 1)) return false;
            }
            break;
        default:
            throw std::runtime_error("not a RESP reply");
    }
    pos = at;
    return true;
}

// Connects, sends `request` and reads `wanted` replies, all within the deadline; an empty
// string, or what went wrong.
std::string exchange(const tcp::endpoint& server, const OutBuffer& request, size_t wanted,
                     int timeout_ms, std::vector<RespValue>& replies) {
    asio::io_context io;
    tcp::socket socket(io);
    asio::steady_timer deadline(io);
    std::string error;
    std::string in;
    char chunk[16 * 1024];
    deadline.expires_after(std::chrono::milliseconds(timeout_ms));
    deadline.async_wait([&](boost::system::error_code ec) {
        if (ec) return;
        error = "no answer within cache.timeout_ms (" + std::to_string(timeout_ms) + " ms)";
        boost::system::error_code ignored;
        socket.close(ignored);
    });
    // Ends the exchange: with an error, unless one came first, or with none.
    const auto finish = [&](const std::string& why) {
        if (error.empty()) error = why;
        deadline.cancel();
    };
    std::function<void()> read = [&] {
        socket.async_read_some(asio::buffer(chunk), [&](boost::system::error_code ec, size_t n) {
            if (ec) return finish(ec.message());
            in.append(chunk, n);
            size_t pos = 0;
            replies.clear();
            try {
                for (RespValue v; replies.size() < wanted && parse_value(in, pos, v); v = {})
                    replies.push_back(std::move(v));
            } catch (const std::exception& e) {
                return finish(e.what());
            }
            if (replies.size() == wanted) return finish({});
            read();
        });
    };
    socket.async_connect(server, [&](boost::system::error_code ec) {
        if (ec) return finish(ec.message());
        asio::async_write(socket, asio::buffer(request.data(), request.size()),
                          [&](boost::system::error_code ec, size_t) {
                              if (ec) return finish(ec.message());
                              read();
                          });
    });
    io.run();
    return error;
}

std::string text_of(const tcp::endpoint& e) {
    const auto a = e.address();
    return (a.is_v6() ? "[" + a.to_string() + "]" : a.to_string()) + ":" + std::to_string(e.port());
}

// A node as CLUSTER SLOTS names it: [host, port, id, ...]; an empty host is the seed's.
tcp::endpoint node_of(const RespValue& v, const tcp::endpoint& seed) {
    if (v.type != '*' || v.items.size() < 2 || v.items[0].type != '$' || v.items[1].type != ':' ||
        v.items[1].integer <= 0 || v.items[1].integer > 65535)
        throw std::runtime_error("CLUSTER SLOTS: a node entry is not [host, port, ...]");
    const auto port = uint16_t(v.items[1].integer);
    const std::string& host = v.items[0].text;
    if (host.empty() || host == "?") return {seed.address(), port};
    boost::system::error_code ec;
    const auto address = asio::ip::make_address(host, ec);
    if (!ec) return {address, port};
    asio::io_context io;
    tcp::resolver resolver(io);
    const auto found = resolver.resolve(host, std::to_string(port), ec);
    if (ec || found.empty())
        throw std::runtime_error("CLUSTER SLOTS: cannot resolve node " + host + ": " +
                                 ec.message());
    return found.begin()->endpoint();
}

ClusterMap map_of(const RespValue& slots, const tcp::endpoint& seed) {
    if (slots.type != '*') throw std::runtime_error("CLUSTER SLOTS: the reply is not an array");
    ClusterMap map;
    std::vector<bool> covered(kClusterSlots, false);
    for (const auto& range : slots.items) {
        if (range.type != '*' || range.items.size() < 3 || range.items[0].type != ':' ||
            range.items[1].type != ':' || range.items[0].integer < 0 ||
            range.items[1].integer < range.items[0].integer ||
            range.items[1].integer >= int64_t(kClusterSlots))
            throw std::runtime_error("CLUSTER SLOTS: a range is not [start, end, master, ...]");
        const uint16_t node = map.node_index(node_of(range.items[2], seed));
        for (int64_t s = range.items[0].integer; s <= range.items[1].integer; ++s) {
            map.slot_node[size_t(s)] = node;
            covered[size_t(s)] = true;
        }
    }
    const auto missing = std::count(covered.begin(), covered.end(), false);
    if (missing > 0)
        throw std::runtime_error("CLUSTER SLOTS: " + std::to_string(missing) + " of " +
                                 std::to_string(kClusterSlots) +
                                 " slots have no master (is CLUSTER INFO's cluster_state ok?)");
    return map;
}

}  // namespace

ClusterMap discover_cluster(const std::vector<tcp::endpoint>& seeds, const RedisHandshake& login,
                            int timeout_ms) {
    OutBuffer request(512);
    size_t wanted = 1;
    if (!login.password.empty()) {
        ++wanted;
        if (login.user.empty())
            resp_encode_command(request, {"AUTH", login.password});
        else
            resp_encode_command(request, {"AUTH", login.user, login.password});
    }
    resp_encode_command(request, {"CLUSTER", "SLOTS"});
    std::string unreached;
    for (const auto& seed : seeds) {
        std::vector<RespValue> replies;
        if (auto error = exchange(seed, request, wanted, timeout_ms, replies); !error.empty()) {
            unreached += (unreached.empty() ? "" : "; ") + text_of(seed) + ": " + error;
            continue;
        }
        const auto fail = [&](const std::string& what) {
            throw std::runtime_error("cache.redis.cluster: " + text_of(seed) + ": " + what);
        };
        if (wanted == 2 && replies[0].type == '-') fail("AUTH: " + replies[0].text);
        if (replies.back().type == '-') fail("CLUSTER SLOTS: " + replies.back().text);
        try {
            return map_of(replies.back(), seed);
        } catch (const std::exception& e) {
            fail(e.what());
        }
    }
    throw std::runtime_error("cache.redis.cluster: no seed server answered: " + unreached);
}

}  // namespace perflab
