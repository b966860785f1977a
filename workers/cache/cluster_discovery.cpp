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
#include <optional>
#include <stdexcept>
#include <string>

#include "resp_codec.h"
#include "tls_filter.h"

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

// Connects, sends `request` and reads `wanted` replies, all within the deadline, over TLS
// when `tls` is given (its certificate checked against `host`); an empty string, or what went
// wrong.
std::string exchange(const tcp::endpoint& server, const std::string& host, const TlsContext* tls,
                     const OutBuffer& request, size_t wanted, int timeout_ms,
                     std::vector<RespValue>& replies) {
    asio::io_context io;
    tcp::socket socket(io);
    asio::steady_timer deadline(io);
    std::optional<TlsFilter> filter;
    bool handshaken = false;
    OutBuffer wire(4096);
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
    // One write at a time: the handshake's flights, then the request.
    const auto send = [&](std::string_view bytes) {
        boost::system::error_code ec;
        asio::write(socket, asio::buffer(bytes.data(), bytes.size()), ec);
        if (ec) finish(ec.message());
        return !ec;
    };
    // The request, sealed when the link is TLS.
    const auto send_request = [&] {
        if (!filter) return send({request.data(), request.size()});
        wire.clear();
        if (!filter->seal({request.data(), request.size()}, wire)) {
            finish(filter->error());
            return false;
        }
        return send({wire.data(), wire.size()});
    };
    // Plaintext received, as whole replies.
    const auto take = [&](std::string_view plain) {
        in.append(plain);
        size_t pos = 0;
        replies.clear();
        try {
            for (RespValue v; replies.size() < wanted && parse_value(in, pos, v); v = {})
                replies.push_back(std::move(v));
        } catch (const std::exception& e) {
            finish(e.what());
            return true;
        }
        if (replies.size() == wanted) finish({});
        return replies.size() == wanted;
    };
    // Ciphertext received: the handshake's until it is done, then the replies'.
    const auto take_sealed = [&](std::string_view sealed) {
        if (!handshaken) {
            wire.clear();
            const auto step = filter->handshake(sealed, wire);
            if (step == TlsFilter::Handshake::failed) {
                finish(filter->error());
                return true;
            }
            if (!wire.empty() && !send({wire.data(), wire.size()})) return true;
            if (step == TlsFilter::Handshake::more) return false;
            handshaken = true;
            if (!send_request()) return true;
        } else if (!filter->feed(sealed)) {
            finish(filter->error());
            return true;
        }
        char plain[16 * 1024];
        for (long n; (n = filter->open(plain, sizeof plain)) != 0;) {
            if (n < 0) {
                finish(filter->error());
                return true;
            }
            if (take({plain, size_t(n)})) return true;
        }
        return false;
    };
    std::function<void()> read = [&] {
        socket.async_read_some(asio::buffer(chunk), [&](boost::system::error_code ec, size_t n) {
            if (ec) return finish(ec.message());
            const bool done = filter ? take_sealed({chunk, n}) : take({chunk, n});
            if (!done) read();
        });
    };
    socket.async_connect(server, [&](boost::system::error_code ec) {
        if (ec) return finish(ec.message());
        if (tls) {
            filter.emplace(*tls, host);
            if (take_sealed({})) return;
        } else if (!send_request()) {
            return;
        }
        read();
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

ClusterMap discover_cluster(const std::vector<tcp::endpoint>& seeds,
                            const std::vector<std::string>& hosts, const RedisHandshake& login,
                            const TlsContext* tls, int timeout_ms) {
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
    for (size_t i = 0; i < seeds.size(); ++i) {
        const tcp::endpoint& seed = seeds[i];
        std::vector<RespValue> replies;
        if (auto error = exchange(seed, hosts.at(i), tls, request, wanted, timeout_ms, replies);
            !error.empty()) {
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
