// SPDX-License-Identifier: MIT
#include "probe_line.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "model/format.h"

namespace perflab {

namespace {

double num(const nlohmann::json& v, const char* key) {
    const auto it = v.find(key);
    return it != v.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string pct(const nlohmann::json& v, const char* key) {
    return format_fixed(num(v, key), 1);
}

std::string bytes(const nlohmann::json& v, const char* key) {
    return format_bytes(uint64_t(num(v, key)));
}

std::string count(const nlohmann::json& v, const char* key) {
    return std::to_string(uint64_t(num(v, key) + 0.5));
}

std::string host_line(const nlohmann::json& v) {
    std::string s = "cpu:" + pct(v, "cpu_busy") + "% us:" + pct(v, "cpu_user") +
                    " sy:" + pct(v, "cpu_system") + " wa:" + pct(v, "cpu_iowait") +
                    " st:" + pct(v, "cpu_steal") + " load:" + format_fixed(num(v, "load1"), 2) +
                    " run:" + count(v, "procs_running") + " mem:" + bytes(v, "mem_used") + "/" +
                    bytes(v, "mem_total") + " cache:" + bytes(v, "mem_cached") +
                    " swap:" + bytes(v, "swap_used") + " net:" + bytes(v, "net_rx_Bps") + "/" +
                    bytes(v, "net_tx_Bps") + "/s";
    double read = 0, write = 0, util = 0;
    for (const auto& [key, value] : v.items()) {
        if (!key.starts_with("disk.") || !value.is_number()) continue;
        if (key.ends_with(".read_Bps")) read += value.get<double>();
        if (key.ends_with(".write_Bps")) write += value.get<double>();
        if (key.ends_with(".util_pct")) util = std::max(util, value.get<double>());
    }
    s += " disk:" + format_bytes(uint64_t(read)) + "/" + format_bytes(uint64_t(write)) +
         "/s util:" + format_fixed(util, 0) + "% ctx:" + count(v, "ctx_switches_ps") +
         "/s retr:" + count(v, "tcp_retrans_ps") + "/s";
    if (v.contains("self_cpu_pct"))
        s += " self:" + pct(v, "self_cpu_pct") + "% rss:" + bytes(v, "self_rss") +
             " thr:" + count(v, "self_threads");
    return s;
}

std::string memcached_line(const nlohmann::json& v) {
    return "items:" + count(v, "curr_items") + " mem:" + bytes(v, "bytes") + "/" +
           bytes(v, "limit_maxbytes") + " (" + pct(v, "mem_pct") +
           "%) evict/s:" + count(v, "evictions_ps") + " evictions:" + count(v, "evictions") +
           " conn:" + count(v, "curr_connections") + " get/s:" + count(v, "cmd_get_ps") +
           " set/s:" + count(v, "cmd_set_ps") + " hit:" + pct(v, "hit_pct") +
           "% cpu:" + pct(v, "cpu_pct") + "%";
}

// The counts this tick beside the rates, so that a run's lines add up to the server's counters.
std::string redis_line(const nlohmann::json& v) {
    std::string s = "ops/s:" + count(v, "ops_ps") + " (" + count(v, "instantaneous_ops_per_sec") +
                    ") hits:+" + count(v, "keyspace_hits_delta") + " misses:+" +
                    count(v, "keyspace_misses_delta") + " hit:" + pct(v, "hit_pct") +
                    "% mem:" + bytes(v, "used_memory") + "/" + bytes(v, "maxmemory");
    if (v.contains("mem_pct")) s += " (" + pct(v, "mem_pct") + "%)";
    s += " evict/s:" + count(v, "evictions_ps") + " evictions:" + count(v, "evictions") + " (+" +
         count(v, "evictions_delta") + ") expired:+" + count(v, "expired_keys_delta") +
         " clients:" + count(v, "connected_clients") + " blocked:" + count(v, "blocked_clients") +
         " cpu:" + pct(v, "cpu_pct") + "%";
    for (const char* command : {"get", "set"}) {
        const std::string key = std::string("latency_") + command + "_p99_us";
        if (v.contains(key)) s += std::string(" ") + command + "-p99:" + pct(v, key.c_str()) + "us";
    }
    return s;
}

// jstat's "-" (a space this collector does not have) arrives as an absent value: "-" again.
std::string pct_or_dash(const nlohmann::json& v, const char* key) {
    return v.contains(key) ? pct(v, key) + "%" : "-";
}

std::string jvm_line(const nlohmann::json& v) {
    return "eden:" + pct_or_dash(v, "eden_pct") + " old:" + pct_or_dash(v, "old_pct") +
           " meta:" + pct_or_dash(v, "metaspace_pct") + " ygc:" + count(v, "young_gc") + " (+" +
           count(v, "young_gc_delta") + ", " + format_fixed(num(v, "young_gc_ms"), 1) +
           "ms) fgc:" + count(v, "full_gc") + " (+" + count(v, "full_gc_delta") + ", " +
           format_fixed(num(v, "full_gc_ms"), 1) + "ms)";
}

// The process's figures, then its threads hottest first as name:pct.
std::string process_line(const nlohmann::json& v) {
    std::string s = "pid:" + count(v, "pid") + " us:" + pct_or_dash(v, "cpu_user_pct") +
                    " sy:" + pct_or_dash(v, "cpu_system_pct") + " rss:" + bytes(v, "rss") +
                    " thr:" + count(v, "threads") + " fds:" + count(v, "open_files") +
                    " cs/s:" + count(v, "ctx_voluntary_ps") + "/" + count(v, "ctx_involuntary_ps");
    std::vector<std::pair<double, std::string>> threads;
    for (const auto& [key, value] : v.items())
        if (key.starts_with("thread.") && key.ends_with(".cpu_pct") && value.is_number())
            threads.emplace_back(value.get<double>(), key.substr(7, key.size() - 15));
    std::sort(threads.begin(), threads.end(), std::greater<>());
    for (const auto& [cpu, name] : threads)
        s += " [" + name + " " + format_fixed(cpu, 1) + "%]";
    return s;
}

// The first few series as key=value, in the order of their keys: the rest are in the store.
std::string prometheus_line(const nlohmann::json& v) {
    constexpr size_t kShown = 6;
    std::string s;
    size_t n = 0;
    for (const auto& [key, value] : v.items()) {
        if (!value.is_number()) continue;
        if (n++ < kShown)
            s += (s.empty() ? "" : " ") + key.substr(key.starts_with("prom.") ? 5 : 0) + "=" +
                 format_fixed(value.get<double>(), 3);
    }
    if (n > kShown) s += " (+" + std::to_string(n - kShown) + " more)";
    return n ? s : "no series selected";
}

}  // namespace

std::string probe_line(const ProbeSample& sample) {
    std::string s = format_clock(sample.t_ms) + " " + sample.source + " ";
    if (sample.gap) return s + "-- no data --";
    if (sample.kind == "memcached") return s + memcached_line(sample.values);
    if (sample.kind == "redis") return s + redis_line(sample.values);
    if (sample.kind == "jvm") return s + jvm_line(sample.values);
    if (sample.kind == "prometheus") return s + prometheus_line(sample.values);
    if (sample.kind == "process") return s + process_line(sample.values);
    return s + host_line(sample.values);
}

}  // namespace perflab
