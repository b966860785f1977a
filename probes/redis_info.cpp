// SPDX-License-Identifier: MIT
#include "redis_info.h"

#include <charconv>
#include <stdexcept>

#include "model/format.h"

namespace perflab {

namespace {

// The Latencystats lines' prefix: "latency_percentiles_usec_get:p50=6.015,p99=...,p99.9=...".
constexpr std::string_view kLatency = "latency_percentiles_usec_";

double number(const std::map<std::string, std::string>& info, const std::string& name) {
    const auto it = info.find(name);
    return it == info.end() ? 0.0 : parse_number(it->second).value_or(0);
}

bool has(const std::map<std::string, std::string>& info, const std::string& name) {
    return info.contains(name);
}

// A counter's rise; a server restarted between two replies starts it again from 0.
double delta(const std::map<std::string, std::string>& a,
             const std::map<std::string, std::string>& b, const std::string& name) {
    const double d = number(b, name) - number(a, name);
    return d > 0 ? d : 0.0;
}

// "p50=6.015,p99=6.015,p99.9=6.015" as values "latency_get_p50_us", ..._p999_us.
void add_latencies(nlohmann::json& v, const std::string& command, std::string_view text) {
    while (!text.empty()) {
        const size_t comma = text.find(',');
        const std::string_view item = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        const size_t eq = item.find('=');
        if (eq == std::string_view::npos || !item.starts_with('p')) continue;
        std::string pct(item.substr(1, eq - 1));
        std::erase(pct, '.');
        if (const auto us = parse_number(std::string(item.substr(eq + 1))))
            v["latency_" + command + "_p" + pct + "_us"] = *us;
    }
}

}  // namespace

std::optional<std::pair<RedisProbeReply, size_t>> read_resp_reply(std::string_view buffer) {
    const size_t end = buffer.find("\r\n");
    if (end == std::string_view::npos) return std::nullopt;
    RedisProbeReply r;
    r.type = buffer.empty() ? 0 : buffer[0];
    const std::string_view line = buffer.substr(1, end - 1);
    if (r.type == '+' || r.type == '-') {
        r.text = std::string(line);
        return std::pair(std::move(r), end + 2);
    }
    if (r.type != '$') throw std::runtime_error("not a RESP reply the probe asked for");
    long long length = 0;
    const auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), length);
    if (ec != std::errc{} || p != line.data() + line.size() || length < -1)
        throw std::runtime_error("a bad RESP bulk length");
    if (length == -1) {
        r.nil = true;
        return std::pair(std::move(r), end + 2);
    }
    const size_t total = end + 2 + size_t(length) + 2;
    if (buffer.size() < total) return std::nullopt;
    r.text = std::string(buffer.substr(end + 2, size_t(length)));
    return std::pair(std::move(r), total);
}

std::string resp_command(std::initializer_list<std::string_view> words) {
    std::string out = "*" + std::to_string(words.size()) + "\r\n";
    for (const auto word : words) {
        out += "$" + std::to_string(word.size()) + "\r\n";
        out += word;
        out += "\r\n";
    }
    return out;
}

std::map<std::string, std::string> parse_redis_info(std::string_view text) {
    std::map<std::string, std::string> out;
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        if (line.ends_with("\r")) line.remove_suffix(1);
        if (line.empty() || line.starts_with('#')) continue;
        const size_t colon = line.find(':');
        if (colon == std::string_view::npos) continue;
        out[std::string(line.substr(0, colon))] = std::string(line.substr(colon + 1));
    }
    return out;
}

nlohmann::json redis_values(const std::map<std::string, std::string>& before,
                            const std::map<std::string, std::string>& after, double seconds) {
    nlohmann::json v = nlohmann::json::object();
    for (const char* name : {"instantaneous_ops_per_sec", "total_commands_processed",
                             "keyspace_hits", "keyspace_misses", "evicted_keys", "expired_keys",
                             "used_memory", "maxmemory", "connected_clients", "blocked_clients"})
        if (has(after, name)) v[name] = uint64_t(number(after, name));
    // memcached's names where the meaning is the same.
    v["evictions"] = uint64_t(number(after, "evicted_keys"));
    const double limit = number(after, "maxmemory");
    if (limit > 0) v["mem_pct"] = 100.0 * number(after, "used_memory") / limit;
    for (const auto& [name, text] : after)
        if (name.starts_with(kLatency)) add_latencies(v, name.substr(kLatency.size()), text);
    if (seconds <= 0 || before.empty()) return v;
    // The counts themselves as well as their rates: a span's count is its samples' deltas.
    const std::pair<const char*, const char*> counters[] = {{"total_commands_processed", "ops"},
                                                            {"keyspace_hits", "keyspace_hits"},
                                                            {"keyspace_misses", "keyspace_misses"},
                                                            {"evicted_keys", "evictions"},
                                                            {"expired_keys", "expired_keys"}};
    for (const auto& [counter, name] : counters) {
        const double d = delta(before, after, counter);
        v[std::string(name) + "_delta"] = d;
        v[std::string(name) + "_ps"] = d / seconds;
    }
    const double hits = delta(before, after, "keyspace_hits");
    const double lookups = hits + delta(before, after, "keyspace_misses");
    v["hit_pct"] = lookups > 0 ? 100.0 * hits / lookups : 0.0;
    v["cpu_pct"] = 100.0 *
                   (delta(before, after, "used_cpu_user") + delta(before, after, "used_cpu_sys")) /
                   seconds;
    return v;
}

}  // namespace perflab
