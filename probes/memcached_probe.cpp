// SPDX-License-Identifier: MIT
#include "memcached_probe.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

#include "model/format.h"

namespace perflab {

namespace {

constexpr std::string_view kEnd = "END\r\n";

double number(const std::map<std::string, std::string>& stats, const std::string& name) {
    const auto it = stats.find(name);
    return it == stats.end() ? 0.0 : parse_number(it->second).value_or(0);
}

double rate(const std::map<std::string, std::string>& a,
            const std::map<std::string, std::string>& b, const std::string& name, double seconds) {
    const double d = number(b, name) - number(a, name);
    return d > 0 ? d / seconds : 0.0;
}

}  // namespace

std::map<std::string, std::string> parse_memcached_stats(std::string_view reply) {
    std::map<std::string, std::string> out;
    while (!reply.empty()) {
        const size_t nl = reply.find('\n');
        std::string_view line = reply.substr(0, nl);
        reply = nl == std::string_view::npos ? std::string_view{} : reply.substr(nl + 1);
        if (line.ends_with("\r")) line.remove_suffix(1);
        if (!line.starts_with("STAT ")) continue;
        line.remove_prefix(5);
        const size_t space = line.find(' ');
        if (space == std::string_view::npos) continue;
        out[std::string(line.substr(0, space))] = std::string(line.substr(space + 1));
    }
    return out;
}

nlohmann::json memcached_values(const std::map<std::string, std::string>& before,
                                const std::map<std::string, std::string>& after, double seconds) {
    nlohmann::json v = nlohmann::json::object();
    for (const char* name : {"curr_items", "bytes", "limit_maxbytes", "curr_connections",
                             "evictions", "get_hits", "get_misses", "cmd_get", "cmd_set"})
        v[name] = uint64_t(number(after, name));
    v["rusage_user"] = number(after, "rusage_user");
    v["rusage_system"] = number(after, "rusage_system");
    const double limit = number(after, "limit_maxbytes");
    v["mem_pct"] = limit > 0 ? 100.0 * number(after, "bytes") / limit : 0.0;
    if (seconds <= 0 || before.empty()) return v;
    for (const char* name : {"evictions", "get_hits", "get_misses", "cmd_get", "cmd_set"})
        v[std::string(name) + "_ps"] = rate(before, after, name, seconds);
    // The count itself, as a JVM sample's full_gc_delta: a span's evictions are its samples'.
    v["evictions_delta"] = number(after, "evictions") - number(before, "evictions");
    const double hits = number(after, "get_hits") - number(before, "get_hits");
    const double gets = hits + number(after, "get_misses") - number(before, "get_misses");
    v["hit_pct"] = gets > 0 ? 100.0 * hits / gets : 0.0;
    v["cpu_pct"] = 100.0 * (rate(before, after, "rusage_user", seconds) +
                            rate(before, after, "rusage_system", seconds));
    return v;
}

MemcachedProbe::MemcachedProbe(std::string host, int port, int timeout_ms)
    : host_(std::move(host)), port_(port), timeout_ms_(timeout_ms) {}

MemcachedProbe::~MemcachedProbe() {
    close();
}

std::string MemcachedProbe::source() const {
    const bool v6 = host_.find(':') != std::string::npos;
    return "memcached " + (v6 ? "[" + host_ + "]" : host_) + ":" + std::to_string(port_);
}

void MemcachedProbe::connect() {
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(host_.c_str(), std::to_string(port_).c_str(), &hints, &found) != 0)
        throw ProbeError(source() + ": unknown host");
    for (addrinfo* a = found; a && fd_ < 0; a = a->ai_next) {
        fd_ = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd_ >= 0 && ::connect(fd_, a->ai_addr, a->ai_addrlen) != 0) close();
    }
    freeaddrinfo(found);
    if (fd_ < 0) throw ProbeError(source() + ": cannot connect: " + std::strerror(errno));
}

std::map<std::string, std::string> MemcachedProbe::fetch() {
    if (fd_ < 0) connect();
    constexpr std::string_view request = "stats\r\n";
    if (::send(fd_, request.data(), request.size(), MSG_NOSIGNAL) != ssize_t(request.size())) {
        close();
        throw ProbeError(source() + ": connection lost");
    }
    std::string reply;
    char buf[8192];
    while (!reply.ends_with(kEnd)) {
        pollfd p{fd_, POLLIN, 0};
        const ssize_t n = ::poll(&p, 1, timeout_ms_) == 1 ? ::recv(fd_, buf, sizeof buf, 0) : -1;
        if (n <= 0) {
            close();
            throw ProbeError(source() + (n == 0 ? ": connection closed" : ": no answer"));
        }
        reply.append(buf, size_t(n));
    }
    return parse_memcached_stats(reply);
}

void MemcachedProbe::open() {
    const auto started = Clock::now();
    last_ = fetch();
    last_time_ = round_trip_middle(started);
}

ProbeReading MemcachedProbe::poll() {
    ProbeReading r;
    r.ready = true;
    const bool was_connected = fd_ >= 0;
    try {
        // A server busy with the load may answer its stats late: the rates run between the
        // middles of the round trips, as the Prometheus probe's do.
        const auto started = Clock::now();
        auto now = fetch();
        const auto t = round_trip_middle(started);
        r.taken_at = t;
        // Just reconnected: this tick is still part of the gap, and only a baseline.
        r.gap = !was_connected;
        if (was_connected)
            r.values =
                memcached_values(last_, now, std::chrono::duration<double>(t - last_time_).count());
        last_ = std::move(now);
        last_time_ = t;
    } catch (const ProbeError& e) {
        r.gap = true;
        if (was_connected) r.events.push_back({0, "error", std::string("probe ") + e.what()});
    }
    return r;
}

void MemcachedProbe::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

}  // namespace perflab
