// SPDX-License-Identifier: MIT
#include "memtier_spec.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

namespace perflab {

namespace {

using nlohmann::json;

template <class T>
std::optional<T> number(const json& c, const char* key) {
    const auto it = c.find(key);
    if (it == c.end() || !it->is_number()) return std::nullopt;
    return it->get<T>();
}

std::string text(const json& c, const char* key) {
    const auto it = c.find(key);
    return it != c.end() && it->is_string() ? it->get<std::string>() : "";
}

// "A:B" → {A, B}: memtier's ratio (sets:gets), size range and pattern (set:get).
std::optional<std::pair<std::string, std::string>> halves(const std::string& s) {
    const size_t colon = s.find(':');
    if (colon == std::string::npos) return std::nullopt;
    return std::pair{s.substr(0, colon), s.substr(colon + 1)};
}

std::optional<uint32_t> whole(const std::string& s) {
    uint32_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

}  // namespace

void apply_memtier_configuration(const json& c, RunSpec& spec) {
    if (!c.is_object()) return;
    CacheSpec& cache = spec.cache ? *spec.cache : spec.cache.emplace();
    const auto port = number<uint16_t>(c, "port");
    if (const std::string server = text(c, "server"); !server.empty() && port)
        cache.servers = {Endpoint{server, *port}};
    const std::string protocol = text(c, "protocol");
    if (protocol == "memcache_text") cache.protocol = CacheProtocol::text;
    if (protocol == "memcache_binary") cache.protocol = CacheProtocol::binary;
    // memtier's ratio is sets:gets; a side of 0 makes a get-only or set-only workload.
    if (const auto ratio = halves(text(c, "ratio"))) {
        const auto sets = whole(ratio->first), gets = whole(ratio->second);
        if (sets && gets && *sets + *gets > 0) {
            cache.set_ratio = *sets;
            cache.get_ratio = *gets;
            cache.workload = *sets == 0   ? CacheWorkload::get_only
                             : *gets == 0 ? CacheWorkload::set_only
                                          : CacheWorkload::ratio;
        }
    }
    const auto key_min = number<uint64_t>(c, "key_minimum");
    if (const auto key_max = number<uint64_t>(c, "key_maximum"); key_max && key_min)
        cache.keys.count = *key_max - std::min(*key_min, *key_max) + 1;
    if (c.contains("key_prefix")) cache.keys.prefix = text(c, "key_prefix");
    if (const auto pattern = halves(text(c, "key_pattern"))) {
        // The gets' pattern: what a cache run's hit rate depends on.
        const std::string& get = pattern->second;
        if (get == "R") cache.keys.distribution = KeyDistribution::uniform;
        if (get == "S" || get == "P") cache.keys.distribution = KeyDistribution::sequential;
        if (get == "Z") {
            cache.keys.distribution = KeyDistribution::zipf;
            if (const auto s = number<double>(c, "key_zipf_exp"); s && *s > 0)
                cache.keys.zipf_s = *s;
        }
        if (get == "G") {
            cache.keys.distribution = KeyDistribution::gaussian;
            if (const auto m = number<double>(c, "key_median"); m && *m > 0) cache.keys.mean = m;
            if (const auto d = number<double>(c, "key_stddev"); d && *d > 0) cache.keys.stddev = d;
        }
    }
    const auto range = halves(text(c, "data_size_range"));
    const auto low = range ? whole(range->first) : std::nullopt;
    const auto high = range ? whole(range->second) : std::nullopt;
    if (low && high && *high > 0) {
        cache.value_size = ValueSize{*low, *high, {}, false};
    } else if (const auto size = number<uint32_t>(c, "data_size"); size && *size > 0) {
        cache.value_size = ValueSize{*size, *size, {}, false};
    }
    cache.value_size.random_bytes = text(c, "random_data") == "true";
    if (const auto expiry = halves(text(c, "expiry_range")))
        if (const auto high_s = whole(expiry->second); high_s && *high_s > 0) cache.ttl_s = *high_s;
    // memtier is event-driven, pipelining on each connection: PerfLab's async driver.
    cache.driver = CacheDriver::async;
    if (const auto threads = number<int>(c, "threads"); threads && *threads > 0)
        cache.threads = *threads;
    if (const auto pipeline = number<int>(c, "pipeline"); pipeline && *pipeline > 0)
        cache.pipeline = *pipeline;
    if (const auto multi = number<uint32_t>(c, "multi_key_get"); multi && *multi > 1)
        cache.multiget = *multi;

    Phase phase;
    const int threads = number<int>(c, "threads").value_or(1);
    phase.concurrency = number<int>(c, "clients").value_or(1) * std::max(threads, 1);
    phase.duration_s = number<double>(c, "test_time").value_or(0);
    // memtier's --requests is per client: each connection sends that many.
    if (const auto requests = number<uint64_t>(c, "requests"); requests && *requests > 0)
        phase.ops = *requests * uint64_t(phase.concurrency);
    // --rate-limiting is per connection.
    if (const auto rate = number<double>(c, "rate_limit"); rate && *rate > 0)
        phase.rate = *rate * phase.concurrency;
    spec.phases = {phase};
}

}  // namespace perflab
